import { hash } from "node:crypto";
import { type EncodedAnswer, presentsCredentials as headersPresentCredentials } from "@psm/host";
import type { Context } from "hono";

/**
 * Conditional GETs for the public reads (`GET /api/listings`,
 * `GET /api/listings/{id}`, `GET /api/profiles`): a strong ETag that is a
 * hash of the body bytes, and 304 without a body when `If-None-Match` names
 * it. A hash of the bytes needs no cache and no invalidation: any change to
 * the body (a view counted, an edit, a listing expiring) changes the tag, in
 * this process and in every other one on the same database.
 */

/**
 * How long a shared cache (a CDN, a proxy) may reuse an anonymous public read
 * without asking: 5 s bounds how stale a page seen through a cache can be,
 * while a hot page still costs the server one request per cache per 5 s.
 */
export const PUBLIC_MAX_AGE = 5;

/** Anonymous answers: any cache may keep them for PUBLIC_MAX_AGE seconds. */
export const PUBLIC_CACHE = `public, max-age=${PUBLIC_MAX_AGE}`;

/**
 * A caller who presented a credential may see what others do not (their own
 * paused listings): only their own client may keep it, and must revalidate
 * (cheap, with the ETag) before each reuse.
 */
export const PRIVATE_CACHE = "private, no-cache";

/**
 * The answer depends on these request headers: a shared cache keeps one copy
 * per credential presented and never serves an anonymous copy to a signed-in
 * caller (or the reverse).
 */
const VARY = "Authorization, X-API-Key";

/** A strong entity tag of the bytes: 128 bits of SHA-1, base64url (collisions are not a concern here). */
export function entityTag(body: string | Uint8Array): string {
  // One-shot hash(): no Hash object per request.
  return `"${hash("sha1", body, "base64url").slice(0, 22)}"`;
}

/**
 * Whether `If-None-Match` matches `tag` (RFC 9110 §13.1.2: the weak
 * comparison, so `W/"x"` matches `"x"`; `*` matches any current answer).
 */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  for (const part of header.split(",")) {
    const candidate = part.trim();
    const opaque = candidate.startsWith("W/") ? candidate.slice(2) : candidate;
    if (opaque === tag) return true;
  }
  return false;
}

/** Whether the request presents a credential (valid or not: the answer is decided by it). */
export function presentsCredentials(c: Context): boolean {
  return headersPresentCredentials(c.req.raw.headers);
}

/** The body encoded once, with its tag: the hash and the socket write share the bytes. */
export function encodeAnswer(body: unknown): EncodedAnswer {
  // Writing a string would encode it again (~15 % of a page's CPU in the profile).
  const bytes = Buffer.from(JSON.stringify(body));
  return { bytes, tag: entityTag(bytes) };
}

/**
 * Answers the encoded body as JSON with its ETag and caching headers, or 304
 * with no body when the client already holds these bytes. `privateAnswer`:
 * the answer may carry private data, privateAnswers() has set `no-store`
 * already and it stays; otherwise a signed-in caller's answer is private and
 * an anonymous one public for PUBLIC_MAX_AGE seconds.
 */
export function conditionalJson(
  c: Context,
  answer: EncodedAnswer,
  status: number,
  privateAnswer: boolean,
): Response {
  c.header("ETag", answer.tag);
  c.header("Vary", VARY, { append: true });
  if (!privateAnswer) c.header("Cache-Control", presentsCredentials(c) ? PRIVATE_CACHE : PUBLIC_CACHE);
  if (noneMatch(c.req.header("if-none-match"), answer.tag)) return c.body(null, 304);
  c.header("Content-Type", "application/json");
  return c.body(answer.bytes, status as 200);
}
