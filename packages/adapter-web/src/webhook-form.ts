import { WEBHOOK_EVENT_TYPES, type Webhook } from "@psm/core";
import type { FieldErrors, FormFields, FormNames } from "./forms.js";

/** An event type a webhook may receive. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The field of an event type's checkbox. One name per type, not a repeated `types`: the form
 * reader keeps only the first value of a repeated name (as key-form.ts's scopeField).
 */
export function typeField(type: string): string {
  return `type.${type}`;
}

const TYPE_FIELD = /^type\.(.*)$/s;
const HOUR_S = 60 * 60;
const DAY_S = 24 * HOUR_S;

/** Core's command fields as the webhook forms name and label them. */
export const WEBHOOK_FIELDS: FormNames = {
  url: { field: "url", label: "URL" },
  types: { field: "types", label: "Event types" },
  description: { field: "description", label: "Description" },
};

/** The create or edit form as typed, to show it again with its problems. */
export interface WebhookDraft {
  url: string;
  /** The ticked boxes, as sent: a crafted form may name types that do not exist. */
  types: string[];
  description: string;
}

export const EMPTY_WEBHOOK_DRAFT: WebhookDraft = { url: "", types: [], description: "" };

/** The create or edit form's fields. */
export function webhookDraftOf(form: FormFields): WebhookDraft {
  const types: string[] = [];
  for (const name of Object.keys(form)) {
    const type = TYPE_FIELD.exec(name)?.[1];
    if (type !== undefined) types.push(type);
  }
  return { url: form.url ?? "", types, description: form.description ?? "" };
}

/** The edit form of a stored webhook. */
export function draftOfWebhook(webhook: Webhook): WebhookDraft {
  return { url: webhook.url, types: [...webhook.types], description: webhook.description };
}

/** What webhooks.create and webhooks.update are asked for. */
export interface WebhookCommand {
  url: string;
  types: WebhookEventType[];
  description: string;
}

const isWebhookType = (type: string): type is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

/**
 * The command of a draft, or what is wrong with a type no box offers (only a crafted form names
 * one). No box ticked goes to core as an empty list, so its refusal comes with any other problem
 * of the form in one answer.
 */
export function webhookCommand(draft: WebhookDraft): { command: WebhookCommand } | { errors: FieldErrors } {
  const types = draft.types.filter(isWebhookType);
  if (types.length !== draft.types.length) {
    return { errors: { types: "Event types must each be one of those listed" } };
  }
  return { command: { url: draft.url, types, description: draft.description } };
}

/** How far back a replay reaches, as its form offers it (core keeps events 90 days). */
export const REPLAY_CHOICES: readonly { value: string; label: string }[] = [
  { value: String(HOUR_S), label: "The last hour" },
  { value: String(DAY_S), label: "The last day" },
  { value: String(7 * DAY_S), label: "The last 7 days" },
  { value: String(30 * DAY_S), label: "The last 30 days" },
];

/** The instant a replay form asks for, counted back from `now`; null for a value it does not offer. */
export function replaySince(form: FormFields, now: Date): Date | null {
  const choice = REPLAY_CHOICES.find((c) => c.value === form.since_seconds);
  return choice ? new Date(now.getTime() - Number(choice.value) * 1000) : null;
}
