import type { Webhook, WebhookDelivery } from "@psm/core";
import { iso } from "./presenters.js";

/** A webhook as the wire shows it: never its secrets. */
export function presentWebhook(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    types: [...webhook.types],
    description: webhook.description,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason,
    created_at: iso(webhook.createdAt),
  };
}

/** A delivery as its webhook's log shows it (the payload is the event's, read from /api/events). */
export function presentDelivery(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    type: delivery.type,
    attempts: delivery.attempts,
    state: delivery.state,
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    next_attempt_at: delivery.nextAttemptAt === null ? null : iso(delivery.nextAttemptAt),
    created_at: iso(delivery.createdAt),
  };
}
