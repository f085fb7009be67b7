import { EVENT_TYPES, type EventType } from "@psm/core";

/** The ids each event type's `data` carries (decisions.md 1.3.0 "Events"). */
const DATA_FIELDS: Readonly<Record<EventType, readonly string[]>> = {
  "listing.created": ["listing_id"],
  "listing.updated": ["listing_id"],
  "listing.deleted": ["listing_id"],
  "message.received": ["message_id", "listing_id", "sender_id"],
  "saved_search.matched": ["saved_search_id", "listing_id"],
  "webhook.test": ["webhook_id"],
};

const HEADERS = [
  {
    name: "webhook-id",
    description: "The event's id (evt_…): the same on every retry and replay; deduplicate by it.",
  },
  { name: "webhook-timestamp", description: "Seconds since the epoch when this attempt was signed." },
  {
    name: "webhook-signature",
    description:
      "Space-separated v1,<base64 HMAC-SHA256 of `id.timestamp.body`> signatures, one per secret in use (two during a rotation's 24 hours). Verify with any Standard Webhooks library.",
  },
];

/**
 * The `webhooks` object of OpenAPI 3.1: one entry per event type, the POST a receiver gets, its
 * signed headers and its body, so a receiver's types can be generated like a client's.
 */
export function openApiWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `A ${type} event`,
          description:
            "A delivery, by Standard Webhooks 1.0.0. Answer any 2xx within 15 seconds; anything else is retried on the schedule (Retry-After is honoured), and 410 turns the webhook off.",
          parameters: HEADERS.map((header) => ({
            in: "header",
            name: header.name,
            required: true,
            description: header.description,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["type", "timestamp", "data"],
                  properties: {
                    type: { const: type },
                    timestamp: {
                      type: "string",
                      format: "date-time",
                      description: "When the event occurred.",
                    },
                    data: {
                      type: "object",
                      description: "Ids only; read the rest from the API.",
                      required: [...DATA_FIELDS[type]],
                      properties: Object.fromEntries(
                        DATA_FIELDS[type].map((field) => [field, { type: "string" }]),
                      ),
                    },
                  },
                },
              },
            },
          },
          responses: { "2XX": { description: "Received; any 2xx body is ignored." } },
        },
      },
    ]),
  );
}
