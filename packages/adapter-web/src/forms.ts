import { isMarketplaceError, MarketplaceError } from "@psm/core";
import { parseForm, readBody } from "@psm/host";
import type { Context } from "hono";
import * as v from "valibot";

/** A submitted url-encoded form: one string per field name (the first, when a name repeats). */
export type FormFields = Record<string, string>;

/** Messages per form field name, shown beside the field and in the summary. */
export type FieldErrors = Record<string, string>;

const unreadable = () => new MarketplaceError("invalid_input", "The form could not be read");
// Read and dropped past the bound, so the "too large" page reaches a browser still sending.
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Reads an `application/x-www-form-urlencoded` body through the host's one body reader within
 * `maxBytes` (past it `payload_too_large`, once the rest is drained) and decodes it strictly with
 * the host's form parser: malformed percent-escapes or bytes that are not UTF-8 are
 * `invalid_input`, never silently replaced, so what is stored is what was typed.
 */
export async function readUrlEncoded(c: Context, maxBytes: number): Promise<FormFields> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) throw unreadable();
  const { bytes } = await readBody(c, { maxBytes, drainBytes: DRAIN_BYTES });
  // Text core would not store reaches the use case, which names the field.
  return parseForm(bytes, type, { storable: false });
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
