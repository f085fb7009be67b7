import { type ErrorCode, type FieldIssue, isMarketplaceError, MarketplaceError } from "@psm/core";
import { parseForm, readBody } from "@psm/host";
import type { Context } from "hono";

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
 * Reads a form of either type a browser sends (url-encoded, or multipart with its file parts left
 * out) through the host's body reader and strict form parser: text core would not store is
 * `invalid_input` here. For the mailed-link pages, whose forms are spent by their token alone.
 */
export async function readAnyForm(c: Context, maxBytes: number): Promise<FormFields> {
  const { bytes } = await readBody(c, { maxBytes, drainBytes: DRAIN_BYTES });
  return parseForm(bytes, c.req.header("content-type") ?? "");
}

/** Core's command fields a form shows, each with its form field name and visible label. */
export type FormNames = Readonly<Record<string, { field: string; label: string }>>;

/**
 * Core's field problems in the form's words, keyed by form field: the first
 * problem of each field ("Price must be a number"), labelled as the page labels
 * it. Problems with fields the form does not show are left out.
 */
export function issueErrors(issues: readonly FieldIssue[], names: FormNames): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const name = names[issue.field.split(".")[0] ?? ""];
    if (!name || name.field in errors) continue;
    const reason = issue.message.startsWith(`${issue.field}: `)
      ? issue.message.slice(issue.field.length + 2)
      : issue.message;
    errors[name.field] = `${name.label} ${reason}`;
  }
  return errors;
}

/**
 * A use case's `invalid_input` in the form's words: every field problem core
 * listed, from the one call, so a person sees all of them at once. Null for
 * any other error, or one about no field of this form, which the caller
 * decides about (usually by rethrowing it to the error page).
 */
export function fieldErrorsOf(error: unknown, names: FormNames): FieldErrors | null {
  if (!isMarketplaceError(error, "invalid_input")) return null;
  const errors = issueErrors(error.issues, names);
  return Object.keys(errors).length > 0 ? errors : null;
}

/** What a refused form shows: its problems by field, and the status of the page that shows them. */
export interface FormRefusal {
  errors: FieldErrors;
  status: 400 | 401;
}

/** The status of a form's page: shown afresh, or shown again with a refusal. */
export type FormStatus = 200 | FormRefusal["status"];

/**
 * A use case's refusal as its form shows it: the page's own wording of a refusal `known` names (a
 * taken email, a wrong password), else core's field problems (400). Null for any other error,
 * which the caller rethrows to the error page.
 */
export function formRefusal(
  error: unknown,
  names: FormNames,
  known: Partial<Record<ErrorCode, FormRefusal>> = {},
): FormRefusal | null {
  const expected = isMarketplaceError(error) ? known[error.code] : undefined;
  if (expected) return expected;
  const errors = fieldErrorsOf(error, names);
  return errors ? { errors, status: 400 } : null;
}
