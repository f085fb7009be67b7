import {
  createWebhookSchema,
  MAX_WEBHOOKS_PER_USER,
  pageQuerySchema,
  replayWebhookSchema,
  updateWebhookSchema,
  WEBHOOK_EVENT_TYPES,
} from "@psm/core";
import { defineOperation } from "../operation.js";
import { presentDelivery, presentWebhook } from "../present-webhooks.js";
import { pageOf, SuccessSchema } from "../wire-schemas.js";
import {
  CreatedWebhookAnswer,
  DeliveryPage,
  ReplayQueuedAnswer,
  RotatedSecretAnswer,
  TestQueuedAnswer,
  WebhookAnswer,
  WebhookSchema,
} from "../wire-webhooks.js";
import { PAGE_QUERY } from "./descriptions.js";

const tag = "webhooks";

const WEBHOOK_FIELDS = {
  url: "Where to POST deliveries: an http(s) URL, at most 2048 characters, whose host resolves only to public addresses (loopback, private, link-local, multicast and metadata addresses are refused: 400 webhook_url_forbidden).",
  types: `The event types to receive, one or more of ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
  description: "A note for yourself, at most 500 characters.",
  enabled: "false stops deliveries; true resumes them (and clears disabled_reason).",
  since:
    "ISO 8601 date-time with a timezone: every event since then that the webhook receives is delivered again (events are kept 90 days).",
} as const;

const BY_ID = { path: { id: "id" } } as const;

/** /api/webhooks: signed deliveries of the caller's events (Standard Webhooks 1.0.0). */
export const webhookOperations = [
  defineOperation({
    name: "list_webhooks",
    tool: 21,
    useWhen: "to see which URLs receive the caller's events",
    method: "GET",
    path: "/api/webhooks",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "read",
    private: "always",
    tag,
    summary: "List your webhooks",
    description: "Your webhooks, newest first. Secrets are never shown again after creation or rotation.",
    input: { schema: pageQuerySchema, from: "query", describe: PAGE_QUERY },
    ok: { status: 200, schema: pageOf("webhooks", WebhookSchema) },
    handle: async ({ m, actor, command }) => {
      const page = await m.webhooks.list(actor, command);
      return {
        webhooks: page.items.map(presentWebhook),
        count: page.items.length,
        next_cursor: page.nextCursor,
      };
    },
  }),
  defineOperation({
    name: "create_webhook",
    tool: 22,
    useWhen:
      "when the user wants their own service told of events as they happen (instead of polling list_events)",
    method: "POST",
    path: "/api/webhooks",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Create a webhook",
    description:
      `Have your events POSTed to a URL as they happen, signed by Standard Webhooks 1.0.0 (headers webhook-id, ` +
      `webhook-timestamp, webhook-signature; body {type, timestamp, data}). The answer holds the signing secret, ` +
      `shown this once. At most ${MAX_WEBHOOKS_PER_USER} per user. A delivery that does not get a 2xx within 15 s ` +
      "is retried for about 35 hours, then the webhook is turned off and you are mailed; a 410 turns it off at once.",
    input: {
      schema: createWebhookSchema,
      from: "body",
      ref: "CreateWebhook",
      describe: WEBHOOK_FIELDS,
      example: {
        url: "https://crm.example.com/hooks/market",
        types: ["message.received"],
        description: "CRM inbox",
      },
    },
    ok: { status: 201, schema: CreatedWebhookAnswer },
    precheck: ({ m, actor, command }) => m.webhooks.checkUrl(actor, { url: command.url }),
    secrets: ["secret"],
    errors: [403, 503],
    handle: async ({ m, actor, command }) => {
      const { webhook, secret } = await m.webhooks.create(actor, command);
      return { webhook: presentWebhook(webhook), secret };
    },
  }),
  defineOperation({
    name: "get_webhook",
    tool: 23,
    useWhen: "to check one webhook's state, for example why it was disabled",
    method: "GET",
    path: "/api/webhooks/{id}",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "read",
    private: "always",
    tag,
    summary: "Get a webhook",
    description: "One of your webhooks; another user's is 404.",
    input: BY_ID,
    ok: { status: 200, schema: WebhookAnswer },
    errors: [404],
    handle: async ({ m, actor, command }) => ({
      webhook: presentWebhook(await m.webhooks.get(actor, command)),
    }),
  }),
  defineOperation({
    name: "update_webhook",
    tool: 24,
    useWhen: "to change where or what a webhook delivers, or to turn it back on after it was disabled",
    method: "PATCH",
    path: "/api/webhooks/{id}",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Change a webhook",
    description: "Change its url (checked as at creation), types, description, or turn it off or on again.",
    input: {
      schema: updateWebhookSchema,
      from: "body",
      ...BY_ID,
      ref: "UpdateWebhook",
      describe: WEBHOOK_FIELDS,
      example: { enabled: true },
    },
    ok: { status: 200, schema: WebhookAnswer },
    errors: [404, 503],
    precheck: async ({ m, actor, command }) => {
      if (command.url !== undefined) await m.webhooks.checkUrl(actor, { url: command.url });
    },
    handle: async ({ m, actor, command }) => ({
      webhook: presentWebhook(await m.webhooks.update(actor, command)),
    }),
  }),
  defineOperation({
    name: "delete_webhook",
    tool: 25,
    useWhen: "when the user no longer wants deliveries to that URL",
    method: "DELETE",
    path: "/api/webhooks/{id}",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Delete a webhook",
    description: "Delete one of your webhooks and its delivery log.",
    input: BY_ID,
    ok: { status: 200, schema: SuccessSchema },
    errors: [404],
    handle: async ({ m, actor, command }) => {
      await m.webhooks.delete(actor, command);
      return { success: true };
    },
  }),
  defineOperation({
    name: "rotate_webhook_secret",
    tool: 26,
    useWhen: "when a signing secret may have leaked",
    method: "POST",
    path: "/api/webhooks/{id}/rotate-secret",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Rotate a webhook's secret",
    description:
      "A new signing secret, shown this once. For 24 hours deliveries carry two signatures, one per secret, so the receiver can switch without missing one.",
    input: BY_ID,
    ok: { status: 201, schema: RotatedSecretAnswer },
    secrets: ["secret"],
    errors: [404],
    handle: async ({ m, actor, command }) => m.webhooks.rotateSecret(actor, command),
  }),
  defineOperation({
    name: "test_webhook",
    tool: 27,
    useWhen: "right after creating or fixing a webhook, to see a delivery arrive",
    method: "POST",
    path: "/api/webhooks/{id}/test",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Send a test event",
    description:
      "Queue a webhook.test event ({webhook_id}) for this webhook alone; it is delivered within seconds and shows in the delivery log.",
    input: BY_ID,
    ok: { status: 202, schema: TestQueuedAnswer },
    errors: [404, 503],
    handle: async ({ m, actor, command }) => ({ event_id: (await m.webhooks.test(actor, command)).eventId }),
  }),
  defineOperation({
    name: "list_webhook_deliveries",
    tool: 28,
    useWhen: "to see whether deliveries arrive and why they fail",
    method: "GET",
    path: "/api/webhooks/{id}/deliveries",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "read",
    private: "always",
    tag,
    summary: "A webhook's delivery log",
    description: "Its deliveries, newest first, with attempts, state and the last status. Kept 30 days.",
    input: { schema: pageQuerySchema, from: "query", ...BY_ID, describe: PAGE_QUERY },
    ok: { status: 200, schema: DeliveryPage },
    errors: [404],
    handle: async ({ m, actor, command }) => {
      const page = await m.webhooks.deliveries(actor, command);
      return {
        deliveries: page.items.map(presentDelivery),
        count: page.items.length,
        next_cursor: page.nextCursor,
      };
    },
  }),
  defineOperation({
    name: "replay_webhook",
    tool: 29,
    useWhen: "after the receiving service was down, to deliver again what it missed",
    method: "POST",
    path: "/api/webhooks/{id}/replay",
    auth: "key-or-jwt",
    scope: "webhooks:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Replay events to a webhook",
    description:
      "Deliver again every event since `since` that the webhook receives, with the original webhook-ids (receivers deduplicate by them). At most 1000 per call.",
    input: {
      schema: replayWebhookSchema,
      from: "body",
      ...BY_ID,
      ref: "ReplayWebhook",
      describe: WEBHOOK_FIELDS,
      example: { since: "2026-11-27T00:00:00Z" },
    },
    ok: { status: 202, schema: ReplayQueuedAnswer },
    errors: [404, 503],
    handle: async ({ m, actor, command }) => m.webhooks.replay(actor, command),
  }),
];
