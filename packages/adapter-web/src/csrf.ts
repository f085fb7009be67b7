import {
  checkFormToken,
  FORM_TOKEN_FIELD,
  originCheck as hostOriginCheck,
  isFormBinding,
  issueFormToken,
  newFormBinding,
} from "@psm/host";
import type { Context, MiddlewareHandler } from "hono";
import { readCookie, writeCookie } from "./cookies.js";
import type { WebEnv } from "./env.js";
import type { WebConfig } from "./options.js";

// The rule is the host's (its csrf.ts); the pages keep what binds a form to a visitor: cookies.
export { checkFormToken, FORM_TOKEN_FIELD, issueFormToken };

/** The host's origin check, for this site's public origin. */
export function originCheck(config: WebConfig): MiddlewareHandler<WebEnv> {
  return hostOriginCheck(config.publicOrigin);
}

/**
 * What forms are bound to: the session token of a signed-in visitor, else a
 * random anonymous cookie (log in, sign up, forgot password), set here when
 * missing. Either is a secret the browser holds and another site cannot read.
 */
export function formBinding(c: Context<WebEnv>, config: WebConfig): string {
  const session = c.get("sessionToken");
  if (session !== undefined) return session;
  const existing = readCookie(c, config, "csrf");
  if (existing !== undefined && isFormBinding(existing)) return existing;
  const fresh = newFormBinding();
  writeCookie(c, config, "csrf", fresh);
  return fresh;
}

/** The binding a submitted form is checked against; never creates one. */
export function submittedBinding(c: Context<WebEnv>, config: WebConfig): string | undefined {
  return c.get("sessionToken") ?? readCookie(c, config, "csrf");
}
