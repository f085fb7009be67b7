import { fields, MarketplaceError } from "@psm/core";
import { multipartBoundary, readMultipart } from "./multipart.js";

/** One `name=value` of a query string or a form body. */
export interface Pair {
  name: string;
  value: string;
}

/** Fields a form of ours ever sends, with room to spare: past it the body is refused before it is decoded. */
export const MAX_FORM_FIELDS = 200;

const decoder = new TextDecoder("utf-8", { fatal: true });
const URLENCODED = "application/x-www-form-urlencoded";

/** A Content-Type's media type, lower-cased, without parameters. */
export function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/**
 * Splits an `application/x-www-form-urlencoded` text (a query string, a form body) strictly:
 * `+` is a space and every escape must decode to UTF-8, each name and value obeying core's
 * text rule. Hono and URLSearchParams keep a broken escape as it is, or turn it into U+FFFD,
 * which would store something other than what was sent: here it is a 400 naming the field.
 */
export function strictPairs(
  encoded: string,
  where = "query",
  { maxPairs = Number.POSITIVE_INFINITY, storable = true }: { maxPairs?: number; storable?: boolean } = {},
): Pair[] {
  const pairs: Pair[] = [];
  for (const part of encoded.split("&")) {
    if (part === "") continue;
    if (pairs.length >= maxPairs) throw new MarketplaceError("invalid_input", `${where}: too many fields`);
    const at = part.indexOf("=");
    const name = decodeStrict(at < 0 ? part : part.slice(0, at));
    if (name === null || (storable && !fields.isStorableText(name))) {
      throw new MarketplaceError(
        "invalid_input",
        `${where}: a parameter name must be UTF-8 without NUL characters or lone surrogates`,
      );
    }
    const value = decodeStrict(at < 0 ? "" : part.slice(at + 1));
    if (value === null) throw new MarketplaceError("invalid_input", `${shown(name)}: is not valid UTF-8`);
    if (storable && !fields.isStorableText(value)) {
      throw new MarketplaceError("invalid_input", `${shown(name)}: ${fields.STORABLE_TEXT_MESSAGE}`);
    }
    pairs.push({ name, value });
  }
  return pairs;
}

/** A percent-encoded component decoded (`+` a space), or null for a broken escape or bytes that are not UTF-8. */
export function decodeStrict(component: string, plusIsSpace = true): string | null {
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
 * The text fields of an HTML form body, `application/x-www-form-urlencoded` or
 * `multipart/form-data` (file parts left out), read strictly and in linear time: at most
 * MAX_FORM_FIELDS fields, UTF-8 obeying core's text rule; the first of a repeated name wins.
 * A body that is not a readable form is a 400 `invalid_input`, never a parser's exception.
 * `storable: false` leaves NUL and lone surrogates in url-encoded values to the use case, whose
 * field-level answer a page shows beside the field.
 */
export function parseForm(
  bytes: Uint8Array,
  contentType: string,
  { storable = true }: { storable?: boolean } = {},
): Record<string, string> {
  // No prototype: a field named __proto__ is a field like any other.
  const form: Record<string, string> = Object.create(null);
  const type = mediaType(contentType);
  if (type === URLENCODED || (contentType === "" && bytes.byteLength === 0)) {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new MarketplaceError("invalid_input", "Form body must be UTF-8");
    }
    for (const { name, value } of strictPairs(text, "form", { maxPairs: MAX_FORM_FIELDS, storable }))
      form[name] ??= value;
    return form;
  }
  const boundary = multipartBoundary(contentType);
  if (boundary === null) {
    throw new MarketplaceError("invalid_input", "Send the form as application/x-www-form-urlencoded");
  }
  return Object.assign(form, readMultipart(bytes, boundary).fields);
}
