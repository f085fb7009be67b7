import * as v from "valibot";
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_TYPES } from "../domain/webhook.js";
import { isoDateTime } from "./fields.js";
import { text } from "./storable-text.js";

const url = v.pipe(
  text,
  v.trim(),
  v.maxLength(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
  v.url("must be an absolute URL"),
  v.check((value) => /^https?:\/\//i.test(value), "must be an http or https URL"),
);

const types = v.pipe(
  v.array(
    v.picklist(WEBHOOK_EVENT_TYPES, `must each be one of ${WEBHOOK_EVENT_TYPES.join(", ")}`),
    "must be a list of event types",
  ),
  v.minLength(1, "must name at least one event type"),
  v.maxLength(WEBHOOK_EVENT_TYPES.length * 2, `must name at most ${WEBHOOK_EVENT_TYPES.length * 2} types`),
  v.transform((list) => WEBHOOK_EVENT_TYPES.filter((type) => list.includes(type))),
);

const description = v.pipe(text, v.trim(), v.maxLength(500, "must be at most 500 characters"));

/** webhooks.create: where to send, which event types, a note for its owner. */
export const createWebhookSchema = v.object({
  url,
  types,
  description: v.optional(description, ""),
});
export type CreateWebhookInput = v.InferInput<typeof createWebhookSchema>;

/** webhooks.update (with the webhook's `id`): any of url, types, description, enabled. */
export const updateWebhookSchema = v.object({
  url: v.optional(url),
  types: v.optional(types),
  description: v.optional(description),
  enabled: v.optional(v.boolean("must be true or false")),
});
export type UpdateWebhookInput = v.InferInput<typeof updateWebhookSchema>;

/** webhooks.checkUrl: the URL a create or update will vet. */
export const webhookUrlSchema = v.object({ url });
export type WebhookUrlInput = v.InferInput<typeof webhookUrlSchema>;

/** webhooks.replay (with the webhook's `id`): every matching event since this instant goes again. */
export const replayWebhookSchema = v.object({ since: isoDateTime });
export type ReplayWebhookInput = v.InferInput<typeof replayWebhookSchema>;
