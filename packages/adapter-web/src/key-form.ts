import { DEFAULT_ROTATION_GRACE_SECONDS, isScope, type Scope } from "@psm/core";
import type { FieldErrors, FormFields } from "./forms.js";

/**
 * The field of a scope's checkbox. One name per scope, not a repeated `scopes`: the form reader
 * keeps only the first value of a repeated name, so ticked boxes would be lost.
 */
export function scopeField(scope: string): string {
  return `scope.${scope}`;
}

const SCOPE_FIELD = /^scope\.(.*)$/s;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The expiries the create form offers; days from the marketplace's clock, or none. */
export const EXPIRY_CHOICES: readonly { value: string; label: string; days: number | null }[] = [
  { value: "never", label: "Never", days: null },
  { value: "7", label: "In 7 days", days: 7 },
  { value: "30", label: "In 30 days", days: 30 },
  { value: "90", label: "In 90 days", days: 90 },
  { value: "365", label: "In 365 days", days: 365 },
];

/** How long a rotated key keeps working beside its replacement, as the rotate form offers it. */
export const GRACE_CHOICES: readonly { value: string; label: string }[] = [
  { value: "0", label: "None: it stops now" },
  { value: "3600", label: "1 hour" },
  { value: String(DEFAULT_ROTATION_GRACE_SECONDS), label: "1 day" },
  { value: "604800", label: "7 days" },
];

/** The create form as typed, to show it again with its problems. */
export interface KeyDraft {
  name: string;
  /** The ticked boxes, as sent: a crafted form may name scopes that do not exist. */
  scopes: string[];
  expiresIn: string;
}

export const EMPTY_DRAFT: KeyDraft = { name: "", scopes: [], expiresIn: "never" };

/** The create form's fields (a form without an expiry, as sent before it had one, never expires). */
export function keyDraftOf(form: FormFields): KeyDraft {
  const scopes: string[] = [];
  for (const name of Object.keys(form)) {
    const scope = SCOPE_FIELD.exec(name)?.[1];
    if (scope !== undefined) scopes.push(scope);
  }
  return { name: form.name ?? "", scopes, expiresIn: form.expires_in ?? "never" };
}

/** What apiKeys.create is asked for. */
export interface KeyCommand {
  name: string;
  scopes?: Scope[];
  expiresAt?: string;
}

/**
 * The command of a draft at `now`, or what is wrong with fields core never sees as typed: an
 * unknown scope (dropping it would leave no box ticked, which is full access) or an expiry
 * outside the choices. No box ticked is no `scopes`: full access, as keys made before scopes.
 */
export function createCommand(draft: KeyDraft, now: Date): { command: KeyCommand } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const scopes = draft.scopes.filter(isScope);
  if (scopes.length !== draft.scopes.length) errors.scopes = "Scopes must each be one of those listed";
  const expiry = EXPIRY_CHOICES.find((choice) => choice.value === draft.expiresIn);
  if (!expiry) errors.expires_in = "Expires must be one of the choices";
  if (Object.keys(errors).length > 0 || !expiry) return { errors };
  const command: KeyCommand = { name: draft.name };
  if (scopes.length > 0) command.scopes = scopes;
  if (expiry.days !== null) command.expiresAt = new Date(now.getTime() + expiry.days * DAY_MS).toISOString();
  return { command };
}

/**
 * The rotate form's grace in seconds: undefined when not sent (core's default), null when it is
 * not a whole number. Core checks the range, so a crafted value is refused by the one rule.
 */
export function graceOf(form: FormFields): number | undefined | null {
  const value = form.grace_seconds;
  if (value === undefined) return undefined;
  return /^\d{1,9}$/.test(value) ? Number(value) : null;
}
