import { WEBHOOK_EVENT_TYPES } from "@psm/core";
import type { FC } from "hono/jsx";
import type { FieldErrors } from "../forms.js";
import { typeField, type WebhookDraft, type WebhookEventType } from "../webhook-form.js";
import { Checkboxes } from "./checkboxes.js";
import { Input } from "./field.js";

/** What each event type tells its receiver, in the owner's words. */
const TYPE_HINTS: Record<WebhookEventType, string> = {
  "listing.created": "You post a listing.",
  "listing.updated": "One of your listings changes: any field, or its status.",
  "listing.deleted": "One of your listings is deleted.",
  "message.received": "Someone sends you a message.",
  "saved_search.matched": "A new listing matches one of your saved searches.",
};

/** The id of an event type's checkbox (the first one is where the error summary points). */
export const typeBoxId = (type: string) => `type-${type.replace(/[^a-z0-9]+/g, "-")}`;

/** The summary's links to the types group: to its first box, which a browser can focus. */
export const TYPE_SUMMARY_IDS: Record<string, string> = {
  types: typeBoxId(WEBHOOK_EVENT_TYPES[0] ?? ""),
};

/** The URL, event types and description of the create and edit forms. */
export const WebhookFields: FC<{ draft: WebhookDraft; errors: FieldErrors }> = ({ draft, errors }) => (
  <>
    <Input
      name="url"
      type="url"
      label="URL"
      hint="Where we POST each event: a public http or https address of your program."
      value={draft.url}
      error={errors.url}
      maxlength={2048}
      autocomplete="off"
      required
    />
    <Checkboxes
      id="types"
      legend="Event types"
      hint="Tick at least one: the webhook receives these events and no others."
      error={errors.types}
      items={WEBHOOK_EVENT_TYPES.map((type) => ({
        name: typeField(type),
        id: typeBoxId(type),
        label: <code>{type}</code>,
        hint: TYPE_HINTS[type],
        checked: draft.types.includes(type),
      }))}
    />
    <Input
      name="description"
      label="Description"
      hint="A note for yourself, such as “CRM inbox”."
      value={draft.description}
      error={errors.description}
      maxlength={500}
      optional
    />
  </>
);
