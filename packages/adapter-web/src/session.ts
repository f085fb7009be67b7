import { type Actor, ANONYMOUS } from "@psm/core";
import type { Context, MiddlewareHandler } from "hono";
import { clearCookie, readCookie, writeCookie } from "./cookies.js";
import type { WebEnv } from "./env.js";
import type { WebConfig } from "./options.js";

/**
 * Resolves the session cookie through core on every page: the session is
 * checked server-side each time, so logging out or changing the password
 * elsewhere ends it at once. The host may have set `actor` from an API
 * credential; pages only ever act for the cookie's user.
 */
export function sessionMiddleware(config: WebConfig): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    const token = readCookie(c, config, "session");
    let actor: Actor = ANONYMOUS;
    if (token !== undefined) {
      actor = await config.marketplace.sessions.resume(token);
      if (actor.kind === "user") c.set("sessionToken", token);
      else clearCookie(c, config, "session");
    }
    c.set("actor", actor);
    await next();
  };
}

/** Opens a session for a user who just proved their password, and hands the browser its cookie. */
export async function startSession(c: Context<WebEnv>, config: WebConfig, actor: Actor): Promise<void> {
  const { token, expiresAt } = await config.marketplace.sessions.open(actor);
  writeCookie(c, config, "session", token, { expires: expiresAt });
  c.set("sessionToken", token);
}

/** Ends the visitor's session in storage (not just the cookie), then drops the cookie. */
export async function endSession(c: Context<WebEnv>, config: WebConfig): Promise<void> {
  const token = readCookie(c, config, "session");
  if (token !== undefined) await config.marketplace.sessions.close(token);
  clearCookie(c, config, "session");
  c.set("actor", ANONYMOUS);
}
