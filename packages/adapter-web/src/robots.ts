import { Hono } from "hono";
import type { WebEnv } from "./env.js";

/**
 * Paths crawlers are asked to leave alone: pages that exist only for a signed-in person (they
 * would send a crawler to log in), the mailed-link pages (their URL holds a one-time token), the
 * targets of form posts that have no page of their own, and the JSON API. Browsing, listings and
 * the sign-up and log-in pages stay crawlable: they are the site's public face. /login, /signup
 * and /forgot-password are also form targets, but a rule for them would hide their pages too, and
 * robots.txt only steers GETs anyway.
 */
const DISALLOWED = [
  "/account",
  "/admin",
  "/inbox",
  "/my/",
  "/post",
  "/logout",
  "/listings/*/messages",
  "/reset-password",
  "/verify-email",
  "/api/",
] as const;

/**
 * No Sitemap line: it would have to be an absolute URL, and the site has no sitemap to point to.
 * Explicit `Allow: /` so a reader does not have to know that everything unlisted is allowed.
 */
export const ROBOTS_TXT = ["User-agent: *", "Allow: /", ...DISALLOWED.map((p) => `Disallow: ${p}`), ""].join(
  "\n",
);

/** GET /robots.txt: plain text, the same for everyone, so caches may keep it for a day. */
export function robotsRoutes(): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get("/robots.txt", (c) => c.text(ROBOTS_TXT, 200, { "Cache-Control": "public, max-age=86400" }));
  return app;
}
