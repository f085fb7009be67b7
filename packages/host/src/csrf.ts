import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";

/**
 * CSRF for writes a browser authenticates with a cookie, whatever surface serves them: the origin
 * check, and a token per rendered form bound to a secret the visitor's browser holds (a session
 * token, or an anonymous cookie). The surface keeps the binding (its cookies); the host keeps the
 * rule, so a second cookie-authenticated surface gets the same one. Surfaces check it before they
 * read a body (an upload's token travels in the form's action).
 */

/** The hidden field (and, for uploads, the action's query parameter) a form sends its token in. */
export const FORM_TOKEN_FIELD = "_csrf";

/**
 * The browser half (hono/csrf): a form POST must come from a page of this site, by
 * `Sec-Fetch-Site: same-origin` or an `Origin` equal to `publicOrigin` or the request's own.
 * A cross-site POST is refused 403.
 */
export function originCheck(publicOrigin: string): MiddlewareHandler {
  return csrf({ origin: (origin, c) => origin === publicOrigin || origin === new URL(c.req.url).origin });
}

/** A fresh secret for an anonymous visitor's binding cookie (43 base64url characters). */
export function newFormBinding(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether a cookie's value has the shape `newFormBinding` gives. */
export function isFormBinding(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

function mac(binding: string, nonce: string): Buffer {
  return createHmac("sha256", binding).update(nonce).digest();
}

/**
 * A token for one rendered form: a fresh nonce and its HMAC under the form's binding. The nonce
 * also names the submission, so a form sent twice can be one write.
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
  // Compared as text: base64url's last character carries two unused bits, so decoding first would
  // let four spellings of one tag through.
  const given = Buffer.from(match[2], "latin1");
  const expected = Buffer.from(mac(binding, match[1]).toString("base64url"), "latin1");
  return timingSafeEqual(given, expected) ? match[1] : null;
}
