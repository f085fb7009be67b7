import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { EVENT_RETENTION_MS } from "../../domain/event.js";
import type { Page } from "../../domain/page.js";
import {
  deliveryPayload,
  MAX_REPLAY_EVENTS,
  SECRET_ROTATION_GRACE_MS,
  type Webhook,
  type WebhookDelivery,
} from "../../domain/webhook.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import { type IdInput, idSchema } from "../../schemas/id.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import { type ReplayWebhookInput, replayWebhookSchema } from "../../schemas/webhooks.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { newEvent } from "../../support/events.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";
import { ownWebhook, transportOf } from "./own-webhook.js";
import { newWebhookSecret } from "./secrets.js";

/**
 * Gives the webhook a new secret. The one it replaces keeps signing beside it for 24 hours, so a
 * receiver can switch at leisure; at most two sign at once (an older one stops at a second rotation).
 */
export async function rotateWebhookSecret(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  actor: Actor,
  input: IdInput,
): Promise<{ secret: string }> {
  const caller = requireUser(actor);
  const webhook = await ownWebhook(deps, caller, validate(idSchema, input).id);
  const now = deps.clock.now();
  const secret = newWebhookSecret(deps);
  const [current] = webhook.secrets;
  const graceEnd = new Date(now.getTime() + SECRET_ROTATION_GRACE_MS);
  const secrets = current
    ? [
        { value: secret, expiresAt: null },
        { value: current.value, expiresAt: graceEnd },
      ]
    : [];
  if (!(await deps.repos.webhooks.update({ ...webhook, secrets }))) {
    throw new MarketplaceError("webhook_not_found");
  }
  return { secret };
}

/** Writes a `webhook.test` event, which the relay delivers to this webhook alone. */
export async function testWebhook(
  deps: Pick<Deps, "repos" | "clock" | "random" | "webhookTransport">,
  actor: Actor,
  input: IdInput,
): Promise<{ eventId: string }> {
  const caller = requireUser(actor);
  transportOf(deps);
  const webhook = await ownWebhook(deps, caller, validate(idSchema, input).id);
  if (!webhook.enabled) throw invalidField("enabled", "the webhook is turned off: turn it on to test it");
  const event = newEvent(deps, "webhook.test", caller.user.id, { webhook_id: webhook.id });
  await deps.repos.events.append([event]);
  return { eventId: event.id };
}

/** The webhook's deliveries, newest first. */
export async function listDeliveries(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  input: IdInput & PageQueryInput,
): Promise<Page<WebhookDelivery>> {
  const caller = requireUser(actor);
  const webhook = await ownWebhook(deps, caller, validate(idSchema, input).id);
  const q = validate(pageQuerySchema, input);
  const rows = await deps.repos.webhookDeliveries.listByWebhook(webhook.id, {
    limit: q.limit + 1,
    before: decodeCursor(q.cursor),
  });
  return toPage(rows, q.limit);
}

/**
 * Queues again every event since `since` that the webhook receives (by type, and its own tests),
 * with the original event ids, so receivers that deduplicate by `webhook-id` see them as repeats.
 * At most MAX_REPLAY_EVENTS per call: `more` says a later `since` should follow.
 */
export async function replayWebhook(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "webhookTransport">,
  actor: Actor,
  input: IdInput & ReplayWebhookInput,
): Promise<{ queued: number; more: boolean }> {
  const caller = requireUser(actor);
  transportOf(deps);
  const { id } = validate(idSchema, input);
  const { since } = validate(replayWebhookSchema, input);
  const webhook = await ownWebhook(deps, caller, id);
  const now = deps.clock.now();
  if (since.getTime() > now.getTime()) throw invalidField("since", "must not be in the future");
  const floor = new Date(Math.max(since.getTime(), now.getTime() - EVENT_RETENTION_MS));
  const events = await deps.repos.events.listFor(caller.user.id, {
    after: 0,
    since: floor,
    types: [...webhook.types, "webhook.test"],
    limit: MAX_REPLAY_EVENTS + 1,
  });
  const replayed = events
    .slice(0, MAX_REPLAY_EVENTS)
    .filter((event) => event.type !== "webhook.test" || event.data.webhook_id === webhook.id);
  await deps.repos.webhookDeliveries.insertMany(
    replayed.map((event) => pendingDelivery(deps, webhook, event, now)),
  );
  return { queued: replayed.length, more: events.length > MAX_REPLAY_EVENTS };
}

/** A delivery of `event` to `webhook`, due now, not yet tried. */
export function pendingDelivery(
  deps: Pick<Deps, "ids">,
  webhook: Pick<Webhook, "id">,
  event: Parameters<typeof deliveryPayload>[0] & { id: string; type: WebhookDelivery["type"] },
  now: Date,
): WebhookDelivery {
  return {
    id: deps.ids.newId(now),
    webhookId: webhook.id,
    eventId: event.id,
    type: event.type,
    payload: deliveryPayload(event),
    attempts: 0,
    state: "pending",
    lastStatus: null,
    lastError: null,
    nextAttemptAt: now,
    createdAt: now,
  };
}
