/** @psm/adapter-web: the marketplace's pages for people, on Hono. */
export { createWebApp } from "./app.js";
export type { Flash, RateLimitClass, WebEnv, WebVariables } from "./env.js";
export type { RateLimitHooks, WebAppOptions, WebLogger } from "./options.js";
