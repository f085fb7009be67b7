import { WEBHOOK_EVENT_TYPES } from "@psm/core";
import * as v from "valibot";
import {
  about,
  COUNT,
  count,
  instant,
  NEXT_CURSOR,
  named,
  nullableInstant,
  referenced,
  uuid,
} from "./wire-fields.js";

/** The wire of webhooks (decisions.md 1.3.0 "Webhooks"): what present-webhooks.ts writes. */

export const WebhookSchema = named(
  "Webhook",
  v.object({
    id: uuid("The webhook's id (a UUID)."),
    url: about("Where deliveries are POSTed: an http(s) URL that resolves to a public address.", v.string()),
    types: about(
      `The event types it receives: some of ${WEBHOOK_EVENT_TYPES.join(", ")} (a webhook.test goes to the webhook tested, whatever its types).`,
      v.array(v.picklist(WEBHOOK_EVENT_TYPES)),
    ),
    description: about("A note for its owner; may be empty.", v.string()),
    enabled: about("Whether deliveries are sent.", v.boolean()),
    disabled_reason: about(
      "Why the server turned it off (the receiver answered 410 Gone, or every retry failed); null when enabled or turned off by its owner.",
      v.nullable(v.string()),
    ),
    created_at: instant("When it was created"),
  }),
);

const SECRET = about(
  "The signing secret, whsec_ and the base64 of 32 random bytes: verify deliveries with it (Standard Webhooks). Shown this once.",
  v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]{43}=$/)),
);

/** POST /api/webhooks. */
export const CreatedWebhookAnswer = v.object({
  webhook: referenced("The new webhook.", WebhookSchema),
  secret: SECRET,
});

/** POST /api/webhooks/{id}/rotate-secret. */
export const RotatedSecretAnswer = v.object({ secret: SECRET });

/** GET, PATCH /api/webhooks/{id}. */
export const WebhookAnswer = v.object({ webhook: referenced("The webhook.", WebhookSchema) });

export const WebhookDeliverySchema = named(
  "WebhookDelivery",
  v.object({
    id: uuid("The delivery's id (a UUID)."),
    event_id: about(
      "The event's id: the webhook-id header, the same on every attempt and replay.",
      v.string(),
    ),
    type: about("The event's type.", v.string()),
    attempts: count("How many times it was sent so far."),
    state: about(
      "pending (waiting for its first or next attempt), succeeded (a 2xx) or failed (for good).",
      v.picklist(["pending", "succeeded", "failed"]),
    ),
    last_status: about(
      "The HTTP status of the last attempt; null before one, or when no answer came.",
      v.nullable(v.number()),
    ),
    last_error: about("Why the last attempt failed; null when it did not.", v.nullable(v.string())),
    next_attempt_at: nullableInstant(
      "When the next attempt may start",
      "once it succeeded or failed for good",
    ),
    created_at: instant("When it was queued"),
  }),
);

/** GET /api/webhooks/{id}/deliveries. */
export const DeliveryPage = v.object({
  deliveries: about(
    "This page of deliveries, newest first; empty when there are none.",
    v.array(WebhookDeliverySchema),
  ),
  count: COUNT,
  next_cursor: NEXT_CURSOR,
});

/** POST /api/webhooks/{id}/test. */
export const TestQueuedAnswer = v.object({
  event_id: about("The webhook.test event queued: its delivery carries this webhook-id.", v.string()),
});

/** POST /api/webhooks/{id}/replay. */
export const ReplayQueuedAnswer = v.object({
  queued: count("How many events were queued again."),
  more: about(
    "True when more events matched than one replay queues (1000): replay again from the last one's time.",
    v.boolean(),
  ),
});
