import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { readCookie, writeCookie } from "./cookies.js";
import type { WebEnv } from "./env.js";
import type { WebConfig } from "./options.js";

/** The hidden field every form posts its token in. */
export const FORM_TOKEN_FIELD = "_csrf";

/**
 * The browser half of CSRF protection (hono/csrf): a form POST must come from
 * a page of this site, by `Sec-Fetch-Site: same-origin` or an `Origin` equal
 * to the public URL's or the request's own. A cross-site POST is refused 403.
 */
export function originCheck(config: WebConfig): MiddlewareHandler<WebEnv> {
  return csrf({
    origin: (origin, c) => origin === config.publicOrigin || origin === new URL(c.req.url).origin,
  });
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
  if (existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const fresh = randomBytes(32).toString("base64url");
  writeCookie(c, config, "csrf", fresh);
  return fresh;
}

function mac(binding: string, nonce: string): Buffer {
  return createHmac("sha256", binding).update(nonce).digest();
}

/**
 * A token for one rendered form: a fresh nonce and its HMAC under the form's
 * binding. The nonce also names the submission, so a form sent twice is one
 * write (see once.ts).
 */
export function issueFormToken(binding: string): string {
  const nonce = randomBytes(16).toString("base64url");
  return `${nonce}.${mac(binding, nonce).toString("base64url")}`;
}

/** The nonce of a valid token for this binding, or null (missing, forged, or bound to another visitor). */
export function checkFormToken(binding: string | undefined, token: string | undefined): string | null {
  if (binding === undefined || token === undefined) return null;
  const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const given = Buffer.from(match[2], "base64url");
  const expected = mac(binding, match[1]);
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : null;
}

/** The binding a submitted form is checked against; never creates one. */
export function submittedBinding(c: Context<WebEnv>, config: WebConfig): string | undefined {
  return c.get("sessionToken") ?? readCookie(c, config, "csrf");
}
