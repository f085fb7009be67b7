import { MarketplaceError } from "@psm/core";

/**
 * How deep a JSON body may nest: structured_data's 32 levels inside the body
 * object, with room to spare. Deeper bodies are refused before JSON.parse, which
 * would spend most of a second building a 1 MiB `[[[[…` before any schema saw it.
 */
export const MAX_JSON_DEPTH = 64;

const decoder = new TextDecoder("utf-8", { fatal: true });

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

/**
 * The elements of a top-level JSON array, counted up to `max + 1` in one pass over the bytes
 * (commas at depth one, strings skipped): a batch is refused by its size before it is parsed.
 * Not an array: 1.
 */
export function topLevelCount(bytes: Uint8Array, max: number): number {
  let i = 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  if (bytes[i] !== 0x5b) return 1;
  let depth = 0;
  let inString = false;
  let count = 1;
  for (; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) depth++;
    else if (byte === 0x5d || byte === 0x7d) depth--;
    else if (byte === 0x2c && depth === 1 && ++count > max) return count;
  }
  return count;
}

/**
 * JSON text as a value: deeper than `maxDepth`, malformed or invalid UTF-8 is a 400
 * (`invalid_input` for depth, `invalid_json` otherwise), decided in linear time before anything
 * walks the value.
 */
export function parseJson(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): unknown {
  if (nestsDeeperThan(bytes, maxDepth)) {
    throw new MarketplaceError("invalid_input", `Body must not nest more than ${maxDepth} levels deep`);
  }
  try {
    // Invalid UTF-8 fails here too (fatal decoder), rather than becoming U+FFFD.
    return JSON.parse(decoder.decode(bytes));
  } catch {
    throw new MarketplaceError("invalid_json");
  }
}

/** A request body's bytes as a JSON object: empty is `{}`, so that the schema names what is missing. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  if (bytes.byteLength === 0) return {};
  // Parsed whatever the Content-Type says: agents often omit it, and a form
  // body fails here with a clear invalid_json rather than a silent `{}`.
  const value = parseJson(bytes);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MarketplaceError("invalid_input", "Body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
