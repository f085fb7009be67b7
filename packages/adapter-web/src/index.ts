/** @psm/adapter-web: the marketplace's pages for people, on Hono. */
export { createWebApp, createWebSurface, WEB_PRIVATE_PATHS } from "./app.js";
export type { Flash, RateLimitClass, WebEnv, WebVariables } from "./env.js";
export type { RateLimitHooks, WebAppOptions, WebLogger } from "./options.js";
export { OAUTH_AUTHORIZE_PATH } from "./routes/oauth.js";
