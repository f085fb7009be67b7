import { MarketplaceError, type UserActor } from "@psm/core";
import { runLimited } from "@psm/host";
import type { Context, MiddlewareHandler, Next } from "hono";
import { setFlash } from "./cookies.js";
import { checkFormToken, FORM_TOKEN_FIELD, originCheck, submittedBinding } from "./csrf.js";
import type { RateLimitClass, WebEnv } from "./env.js";
import { readUrlEncoded } from "./forms.js";
import type { WebConfig } from "./options.js";

/** Why a form with a bad or missing token is refused (answered 403 with a way back). */
export const STALE_FORM =
  "This form has expired or was not sent from this site. Go back, reload the page and try again.";

/** Runs the host's limiter of `rate` around `next` (nothing when the host configured none). */
export async function limited(c: Context<WebEnv>, config: WebConfig, rate: RateLimitClass, next: Next) {
  await runLimited(c, [rate], config.rateLimit, next);
}

/** A GET page counted by the host's read limiter, as API reads are. */
export function readLimit(config: WebConfig): MiddlewareHandler<WebEnv> {
  return (c, next) => limited(c, config, "read", next);
}

/**
 * Pages for signed-in people: a visitor without a session is sent to the
 * log-in page, and comes back here afterwards.
 */
export function signedIn(config: WebConfig): MiddlewareHandler<WebEnv> {
  const origin = originCheck(config);
  return async (c, next) => {
    if (c.get("actor").kind === "user") return next();
    if (c.req.method === "GET" || c.req.method === "HEAD") {
      const back = c.req.path + new URL(c.req.url).search;
      return c.redirect(`/login?next=${encodeURIComponent(back)}`, 303);
    }
    // A cross-site POST carries no session cookie (SameSite=Lax): refuse it as one, not as a log-in.
    await origin(c, async () => {});
    // A form sent after the session ended: where it was going means nothing after a log-in.
    setFlash(c, config, { tone: "error", text: "Your session has ended. Log in again to continue." });
    return c.redirect("/login", 303);
  };
}

/**
 * The gate of every url-encoded form POST, in order: the origin check
 * (hono/csrf), the bounded body, the per-form token bound to this visitor,
 * then the host's limiter of `rate` (which can key on the form's fields).
 */
export function formGuard(config: WebConfig, rate: RateLimitClass): MiddlewareHandler<WebEnv> {
  const origin = originCheck(config);
  return (c, next) =>
    origin(c, async () => {
      const form = await readUrlEncoded(c, config.maxFormBytes);
      const nonce = checkFormToken(submittedBinding(c, config), form[FORM_TOKEN_FIELD]);
      if (nonce === null) throw new MarketplaceError("forbidden", STALE_FORM);
      c.set("form", form);
      c.set("formNonce", nonce);
      c.set("body", form);
      await limited(c, config, rate, next);
    });
}

/** The signed-in visitor of a page behind signedIn(); `unauthenticated` (back to log in) otherwise. */
export function userOf(c: Context<WebEnv>): UserActor {
  const actor = c.get("actor");
  if (actor.kind !== "user") throw new MarketplaceError("unauthenticated");
  return actor;
}
