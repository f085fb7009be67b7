import { fields, MarketplaceError } from "@psm/core";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "./env.js";
import { readUpload } from "./uploads/read-upload.js";

/**
 * Reading requests strictly: bodies within their limits, JSON without
 * excessive nesting, forms and query strings as UTF-8 obeying core's text
 * rule. What the values mean is checked by the use case, once.
 */

/**
 * Bytes past a body limit that are read and thrown away before the 413 is answered: a client
 * still sending when the server closes the connection gets a reset (EPIPE) instead of the
 * answer. A body declared larger than the limit and this together is answered at once.
 */
export const DRAIN_BYTES = 16 * 1024 * 1024;

/** Reads the body within `maxBytes` (413 past it, once the rest is drained); Content-Length is only a claim. */
export async function readBytes(c: Context<AppEnv>, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const { bytes } = await readUpload(c, { maxBytes, drainBytes: DRAIN_BYTES });
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A `413 payload_too_large` body limit that also counts bodies without (or with a lying)
 * Content-Length, and drains an oversized body before answering so that the client reads its
 * 413. The body read is handed on as the request's body; a form body is parsed here, strictly
 * (see `readForm`: 400 when it is not a readable form, never a parser's exception later), and
 * that parse is what `c.req.parseBody()` answers downstream.
 */
export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bytes = await readBytes(c, maxBytes);
    c.req.raw = new Request(c.req.raw, { body: bytes });
    const type = c.req.header("content-type") ?? "";
    // The media types Hono's parseBody reads as a form.
    if (mediaType(type) === URLENCODED || mediaType(type) === MULTIPART) {
      const data = new FormData();
      for (const [name, value] of Object.entries(await parseForm(bytes, type))) data.append(name, value);
      c.req.bodyCache.formData = data;
    }
    await next();
  };
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * How deep a JSON body may nest: structured_data's 32 levels inside the body
 * object, with room to spare. Deeper bodies are refused before JSON.parse, which
 * would spend most of a second building a 1 MiB `[[[[…` before any schema saw it.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests deeper than `max` (brackets inside strings do not count): one linear pass. */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // a backslash: the next byte is escaped
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}

/** Parses a JSON object body; an empty body is `{}` so that the schema names what is missing. */
export async function readJsonObject(c: Context<AppEnv>, maxBytes: number): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBytes(c, maxBytes));
}

/**
 * A request body's bytes as a JSON object: empty is `{}`; too deep, malformed,
 * invalid UTF-8 or not an object is a 400. (The route gate reads the bytes
 * itself, to keep them for an Idempotency-Key's fingerprint.)
 */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  if (bytes.byteLength === 0) return {};
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) {
    throw new MarketplaceError("invalid_input", `Body must not nest more than ${MAX_JSON_DEPTH} levels deep`);
  }
  let value: unknown;
  try {
    // Parsed whatever the Content-Type says: agents often omit it, and a form
    // body fails here with a clear invalid_json rather than a silent `{}`.
    // Invalid UTF-8 fails here too (fatal decoder), rather than becoming U+FFFD.
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new MarketplaceError("invalid_json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MarketplaceError("invalid_input", "Body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** One `name=value` of a query string or a form body. */
interface Pair {
  name: string;
  value: string;
}

/**
 * Splits an `application/x-www-form-urlencoded` text (a query string, a form body) strictly:
 * `+` is a space and every escape must decode to UTF-8, each name and value obeying core's
 * text rule. Hono and URLSearchParams keep a broken escape as it is, or turn it into U+FFFD,
 * which would store something other than what was sent: here it is a 400 naming the field.
 */
export function strictPairs(encoded: string, where = "query"): Pair[] {
  const pairs: Pair[] = [];
  for (const part of encoded.split("&")) {
    if (part === "") continue;
    const at = part.indexOf("=");
    const rawName = at < 0 ? part : part.slice(0, at);
    const name = decodeStrict(rawName, true);
    if (name === null || !fields.isStorableText(name)) {
      throw new MarketplaceError(
        "invalid_input",
        `${where}: a parameter name must be UTF-8 without NUL characters or lone surrogates`,
      );
    }
    const value = decodeStrict(at < 0 ? "" : part.slice(at + 1), true);
    if (value === null) throw new MarketplaceError("invalid_input", `${shown(name)}: is not valid UTF-8`);
    if (!fields.isStorableText(value)) {
      throw new MarketplaceError("invalid_input", `${shown(name)}: ${fields.STORABLE_TEXT_MESSAGE}`);
    }
    pairs.push({ name, value });
  }
  return pairs;
}

/** A percent-encoded component decoded, or null for a broken escape or bytes that are not UTF-8. */
function decodeStrict(component: string, plusIsSpace: boolean): string | null {
  try {
    return decodeURIComponent(plusIsSpace ? component.replaceAll("+", " ") : component);
  } catch {
    return null;
  }
}

/** A field name as an error message shows it: a caller's own text, so bounded. */
function shown(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
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

/** The media types a form body may come as. */
const URLENCODED = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

/** A Content-Type's media type, lower-cased, without parameters. */
function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/**
 * Reads an HTML form body (`application/x-www-form-urlencoded`, or `multipart/form-data`) within
 * `maxBytes`: its text fields, each obeying core's text rule. A body that is not a readable form
 * is a 400 `invalid_input`, never a parser's exception; file parts are left out.
 */
export async function readForm(c: Context<AppEnv>, maxBytes: number): Promise<Record<string, string>> {
  return parseForm(await readBytes(c, maxBytes), c.req.header("content-type") ?? "");
}

async function parseForm(bytes: Uint8Array<ArrayBuffer>, type: string): Promise<Record<string, string>> {
  // No prototype: a field named __proto__ is a field like any other.
  const form: Record<string, string> = Object.create(null);
  if (mediaType(type) === URLENCODED || (type === "" && bytes.byteLength === 0)) {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new MarketplaceError("invalid_input", "Form body must be UTF-8");
    }
    for (const { name, value } of strictPairs(text, "form")) form[name] ??= value;
    return form;
  }
  if (mediaType(type) !== MULTIPART) {
    throw new MarketplaceError("invalid_input", "Send the form as application/x-www-form-urlencoded");
  }
  let data: FormData;
  try {
    data = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new MarketplaceError("invalid_input", "Malformed multipart body");
  }
  let storable = true;
  data.forEach((value, name) => {
    if (typeof value !== "string" || name in form) return;
    storable &&= fields.isStorableText(name) && fields.isStorableText(value);
    form[name] = value;
  });
  if (!storable) throw new MarketplaceError("invalid_input", `form: ${fields.STORABLE_TEXT_MESSAGE}`);
  return form;
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
