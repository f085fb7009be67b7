import { isMarketplaceError, MarketplaceError } from "@psm/core";
import type { Context } from "hono";
import * as v from "valibot";

/** A submitted url-encoded form: one string per field name (the first, when a name repeats). */
export type FormFields = Record<string, string>;

/** Messages per form field name, shown beside the field and in the summary. */
export type FieldErrors = Record<string, string>;

const MAX_FIELDS = 200;
const unreadable = () => new MarketplaceError("invalid_input", "The form could not be read");

/**
 * Reads an `application/x-www-form-urlencoded` body within `maxBytes` (past it
 * `payload_too_large`) and decodes it strictly: malformed percent-escapes or
 * bytes that are not UTF-8 are `invalid_input`, never silently replaced, so
 * what is stored is what was typed.
 */
export async function readUrlEncoded(c: Context, maxBytes: number): Promise<FormFields> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) throw unreadable();
  const text = await readText(c, maxBytes);
  const fields: FormFields = {};
  if (text === "") return fields;
  const pairs = text.split("&");
  if (pairs.length > MAX_FIELDS) throw unreadable();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const name = decode(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? "" : decode(pair.slice(at + 1));
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replaceAll("+", " "));
  } catch {
    throw unreadable();
  }
}

async function readText(c: Context, maxBytes: number): Promise<string> {
  const bytes = await readBytes(c, maxBytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw unreadable();
  }
}

/**
 * The request body, read chunk by chunk and refused with `payload_too_large`
 * once it passes `maxBytes`: nothing past the bound is kept. Up to
 * `drainBytes` more are read and dropped first, so that a browser still
 * sending gets the answer page instead of a reset connection; a body that
 * declares more than both is refused at once.
 */
export async function readBytes(
  c: Context,
  maxBytes: number,
  drainBytes = 0,
): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(c.req.header("content-length")) > maxBytes + drainBytes) throw tooLarge(c);
  const reader = c.req.raw.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read().catch(() => {
      throw unreadable();
    });
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      chunks.length = 0;
      if (size > maxBytes + drainBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(c);
      }
      continue;
    }
    chunks.push(next.value);
  }
  if (size > maxBytes) throw tooLarge(c);
  return new Uint8Array(Buffer.concat(chunks, size));
}

function tooLarge(c: Context): MarketplaceError {
  // The unread rest of the body makes the connection unusable: say so.
  c.header("Connection", "close");
  return new MarketplaceError("payload_too_large");
}

/**
 * Every problem core's own schema finds in a command, by the form's field
 * names, so a person sees all of them at once (the use case, which stops at
 * the first, still validates again when it runs). `names` maps the command's
 * keys to form fields and their labels.
 */
export function schemaErrors(
  schema: v.GenericSchema,
  command: unknown,
  names: Record<string, { field: string; label: string }>,
): FieldErrors {
  const result = v.safeParse(schema, command);
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.issues) {
    const key = v.getDotPath(issue)?.split(".")[0];
    const name = key === undefined ? undefined : names[key];
    if (!name || name.field in errors) continue;
    const required = issue.kind === "schema" && issue.input === undefined;
    errors[name.field] = `${name.label} ${required ? "is required" : issue.message}`;
  }
  return errors;
}

/**
 * A use case's `invalid_input` about one field, in the form's words
 * ("Expires on must be in the future"); null for any other error, which the
 * caller decides about.
 */
export function fieldErrorOf(
  error: unknown,
  names: Record<string, { field: string; label: string }>,
): FieldErrors | null {
  if (!isMarketplaceError(error) || error.field === undefined) return null;
  const name = names[error.field.split(".")[0] ?? ""];
  if (!name) return null;
  const reason = error.message.startsWith(`${error.field}: `)
    ? error.message.slice(error.field.length + 2)
    : error.message;
  return { [name.field]: `${name.label} ${reason}` };
}
