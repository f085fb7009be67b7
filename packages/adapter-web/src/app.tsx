import { assertStorableUrl, type PrivatePath, type Surface } from "@psm/host";
import { Hono } from "hono";
import { assetRoutes } from "./assets.js";
import type { WebEnv } from "./env.js";
import { problemPage, webErrorHandler } from "./errors.js";
import { readLimit } from "./guard.js";
import { resolveWebConfig, type WebAppOptions, type WebConfig } from "./options.js";
import { robotsRoutes } from "./robots.js";
import { accountRoutes } from "./routes/account.js";
import { adminRoutes } from "./routes/admin.js";
import { authRoutes } from "./routes/auth.js";
import { browseRoutes } from "./routes/browse.js";
import { inboxRoutes } from "./routes/inbox.js";
import { mailedLinkRoutes } from "./routes/mailed-links.js";
import { myListingRoutes } from "./routes/my-listings.js";
import { notificationRoutes } from "./routes/notifications.js";
import { oauthRoutes } from "./routes/oauth.js";
import { postRoutes } from "./routes/post.js";
import { sessionMiddleware } from "./session.js";

/** The JSON API's paths: the web app never answers them, so unknown ones stay JSON 404s. */
function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/");
}

/**
 * The web interface as a Hono app: pages rendered on the server with
 * hono/jsx, calling core's use cases in-process as the session's user.
 * Mount it at "/" after the API and any other surface (createHttpApp's
 * `surfaces`, last): its catch-all answers unknown pages with an HTML 404 for
 * browsers and hands every other unknown request back to the host's notFound.
 */
export function createWebApp(options: WebAppOptions): Hono<WebEnv> {
  return webApp(resolveWebConfig(options));
}

function webApp(config: WebConfig): Hono<WebEnv> {
  const app = new Hono<WebEnv>();

  // Assets and robots.txt first: they need no session.
  app.route("/", assetRoutes());
  app.route("/", robotsRoutes());
  const session = sessionMiddleware(config);
  app.use(async (c, next) => (isApiPath(c.req.path) ? next() : session(c, next)));
  // A page's query and path obey core's text rule as the API's do (decisions.md "Strings"):
  // `/?q=%ED%A0%80` is a 400 page, not a search for the literal escape.
  app.use(async (c, next) => {
    if (!isApiPath(c.req.path)) assertStorableUrl(c);
    await next();
  });

  app.route("/", browseRoutes(config));
  app.route("/", authRoutes(config));
  app.route("/", mailedLinkRoutes(config));
  app.route("/", postRoutes(config));
  app.route("/", myListingRoutes(config));
  app.route("/", inboxRoutes(config));
  app.route("/", notificationRoutes(config));
  // OAuth's consent page and connected applications, when the server is an authorization server.
  if (config.marketplace.settings.oauth) app.route("/", oauthRoutes(config));
  app.route("/", accountRoutes(config));
  app.route("/", adminRoutes(config));

  app.get("*", readLimit(config), (c) => {
    const browser = (c.req.header("accept") ?? "").includes("text/html");
    if (isApiPath(c.req.path) || !browser) return c.notFound();
    return problemPage(c, config, 404, {
      title: "Page not found",
      message: "There is no page at this address. It may have moved, or the link may be mistyped.",
    });
  });

  app.onError(webErrorHandler(config));
  return app;
}

/** The pages whose URL holds a one-time token: every answer of theirs, errors included, is never stored. */
export const WEB_PRIVATE_PATHS: readonly PrivatePath[] = [
  { path: "/reset-password", privacy: "always" },
  { path: "/verify-email", privacy: "always" },
  { path: "/unsubscribe", privacy: "always" },
];

/** The pages as a surface for the host (createHttpApp's `surfaces`, last), with their private paths. */
export function createWebSurface(options: WebAppOptions): Surface {
  const config = resolveWebConfig(options);
  return { path: "/", app: webApp(config), private: WEB_PRIVATE_PATHS, settle: () => config.views.settled() };
}
