import { readBody } from "@psm/host";
import type { Context } from "hono";
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

/** The query string as a record (a repeated key becomes an array, which schemas refuse). */
export function queryOf(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([key, values]) => [
      key,
      values.length === 1 ? (values[0] ?? "") : values,
    ]),
  );
}
