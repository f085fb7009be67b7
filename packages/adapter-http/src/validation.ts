import { fields, MarketplaceError } from "@psm/core";
import { decodeStrict, readBody, strictPairs } from "@psm/host";
import type { Context } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "./env.js";

/**
 * Reading requests strictly: bodies within their limits, JSON without
 * excessive nesting, query strings and path parameters as UTF-8 obeying
 * core's text rule. What the values mean is checked by the use case, once.
 */

/**
 * Bytes past a body limit that are read and thrown away before the 413 is answered: a client
 * still sending when the server closes the connection gets a reset (EPIPE) instead of the
 * answer. A body declared larger than the limit and this together is answered at once.
 */
export const DRAIN_BYTES = 16 * 1024 * 1024;

/** Reads the body within `maxBytes` (413 past it, once the rest is drained); Content-Length is only a claim. */
export async function readBytes(c: Context<AppEnv>, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  return (await readBody(c, { maxBytes, drainBytes: DRAIN_BYTES })).bytes;
}

/**
 * Every query parameter and every path parameter of the request obeys core's text rule
 * (decisions.md, "Strings"), whatever route it reaches: 400 `invalid_input` naming it. Read
 * from the URL as sent, since the decoded values Hono hands on keep a broken escape as it is.
 */
export function assertStorableParams(c: Context<AppEnv>): void {
  const url = c.req.url;
  // Without an escape every parameter is a piece of the URL cut at ASCII delimiters (`+` read as
  // a space): storable when the URL is, so most requests need no decoding at all.
  if (!url.includes("%") && fields.isStorableText(url)) return;
  const queryAt = url.indexOf("?");
  const hashAt = url.indexOf("#");
  const pathEnd = queryAt >= 0 ? queryAt : hashAt >= 0 ? hashAt : url.length;
  if (queryAt >= 0) strictPairs(url.slice(queryAt + 1, hashAt > queryAt ? hashAt : undefined));
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  if (pathStart < 0 || pathStart > pathEnd) return;
  const pattern = routePath(c).split("/");
  url
    .slice(pathStart, pathEnd)
    .split("/")
    .forEach((segment, i) => {
      const decoded = decodeStrict(segment, false);
      if (decoded !== null && fields.isStorableText(decoded)) return;
      // Named after its parameter (`:id`), or "path" when the segment is not one.
      const param = /^:(\w+)/.exec(pattern[i] ?? "")?.[1] ?? "path";
      throw new MarketplaceError(
        "invalid_input",
        `${param}: ${decoded === null ? "is not valid UTF-8" : fields.STORABLE_TEXT_MESSAGE}`,
      );
    });
}

/** The query string as a record (a repeated key becomes an array, which schemas refuse). */
export function queryOf(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([key, values]) => [
      key,
      values.length === 1 ? (values[0] ?? "") : values,
    ]),
  );
}
