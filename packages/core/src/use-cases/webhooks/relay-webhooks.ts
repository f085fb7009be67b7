import type { Deps } from "../../deps.js";
import {
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  DELIVERY_LEASE_MS,
  nextAttemptAt,
  receives,
  signingSecrets,
  type WebhookDelivery,
} from "../../domain/webhook.js";
import type { DeliveryResult } from "../../ports/webhook-repository.js";
import type { DeliveryOutcome, WebhookTransport } from "../../ports/webhook-transport.js";
import { pendingDelivery } from "./webhook-actions.js";

type RelayDeps = Pick<Deps, "repos" | "clock" | "ids" | "random" | "settings" | "webhookTransport">;

/** What one relay round did. */
export interface RelayReport {
  /** Deliveries made from new events. */
  fannedOut: number;
  delivered: number;
  retried: number;
  failed: number;
  /**
   * Whether more may be waiting: the round read a full batch of events or claimed a full batch of
   * due deliveries. The next round should not wait for the timer.
   */
  more: boolean;
}

/** How much one round takes on. */
export interface RelayOptions {
  /** Events read from the log per round (default 500). */
  fanOutBatch?: number;
  /** Deliveries claimed and sent at once per round (default 10). */
  batchSize?: number;
}

/**
 * One relay round: turns new events into deliveries, then sends the deliveries that are due. A
 * service calls it on a timer (`startWebhookRelay` in @psm/adapter-webhooks does). Deliveries are
 * at least once: a process that dies mid-send leaves a lease that runs out, and the delivery goes
 * again with the same `webhook-id`.
 */
export async function relayWebhooks(deps: RelayDeps, options: RelayOptions = {}): Promise<RelayReport> {
  const report: RelayReport = { fannedOut: 0, delivered: 0, retried: 0, failed: 0, more: false };
  const transport = deps.webhookTransport;
  if (!transport) return report;
  const fanOutBatch = options.fanOutBatch ?? 500;
  const batchSize = options.batchSize ?? 10;
  const fanned = await fanOut(deps, fanOutBatch);
  report.fannedOut = fanned.deliveries;
  const claimed = await deps.repos.webhookDeliveries.claimDue(deps.clock.now(), batchSize, DELIVERY_LEASE_MS);
  report.more = fanned.events >= fanOutBatch || claimed.length >= batchSize;
  const outcomes = await Promise.all(claimed.map((delivery) => attempt(deps, transport, delivery)));
  for (const outcome of outcomes) report[outcome]++;
  return report;
}

/**
 * Reads the events after the fan-out cursor and makes a delivery for each webhook that receives
 * one, moving the cursor in the same transaction. Seqs become visible in commit order, so the
 * cursor never passes an event that commits later; one process fans out at a time (the others
 * find the cursor taken and skip).
 */
async function fanOut(deps: RelayDeps, batch: number): Promise<{ events: number; deliveries: number }> {
  return deps.repos.unitOfWork.run(async (repos) => {
    const cursor = await repos.webhookDeliveries.takeFanOutCursor();
    if (cursor === null) return { events: 0, deliveries: 0 };
    const events = await repos.events.listAfter(cursor, batch);
    const last = events.at(-1);
    if (!last) return { events: 0, deliveries: 0 };
    const owners = [...new Set(events.map((event) => event.userId))];
    const webhooks = await repos.webhooks.listEnabledFor(owners);
    const now = deps.clock.now();
    const deliveries: WebhookDelivery[] = [];
    for (const event of events) {
      for (const webhook of webhooks) {
        if (receives(webhook, event)) deliveries.push(pendingDelivery(deps, webhook, event, now));
      }
    }
    if (deliveries.length > 0) await repos.webhookDeliveries.insertMany(deliveries);
    await repos.webhookDeliveries.advanceFanOutCursor(last.seq);
    return { events: events.length, deliveries: deliveries.length };
  });
}

type Attempted = "delivered" | "retried" | "failed";

async function attempt(
  deps: RelayDeps,
  transport: WebhookTransport,
  delivery: WebhookDelivery,
): Promise<Attempted> {
  const webhook = await deps.repos.webhooks.findById(delivery.webhookId);
  if (!webhook?.enabled) {
    await settle(deps, delivery, {
      state: "failed",
      lastStatus: null,
      lastError: "the webhook is turned off",
    });
    return "failed";
  }
  const outcome = await sendSafely(transport, {
    url: webhook.url,
    id: delivery.eventId,
    timestamp: deps.clock.now(),
    payload: delivery.payload,
    secrets: signingSecrets(webhook, deps.clock.now()),
  });
  if (outcome.kind === "succeeded") {
    await settle(deps, delivery, { state: "succeeded", lastStatus: outcome.status, lastError: null });
    return "delivered";
  }
  if (outcome.kind === "gone") {
    await giveUp(deps, delivery, outcome.status, "the receiver answered 410 Gone", true);
    return "failed";
  }
  const now = deps.clock.now();
  const schedule = deps.settings.webhookRetrySchedule ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const unit = deps.random.bytes(1)[0]! / 256;
  const next = nextAttemptAt(schedule, delivery.attempts, now, unit, outcome.retryAfterMs);
  if (next === null) {
    await giveUp(deps, delivery, outcome.status, outcome.error, false);
    return "failed";
  }
  await deps.repos.webhookDeliveries.record(delivery.id, {
    state: "pending",
    lastStatus: outcome.status,
    lastError: outcome.error,
    nextAttemptAt: next,
  });
  return "retried";
}

/** A transport that throws (it should not) counts as a failed attempt, not a crashed round. */
async function sendSafely(
  transport: WebhookTransport,
  delivery: Parameters<WebhookTransport["deliver"]>[0],
): Promise<DeliveryOutcome> {
  try {
    return await transport.deliver(delivery);
  } catch (error) {
    return { kind: "failed", status: null, error: error instanceof Error ? error.message : String(error) };
  }
}

function settle(
  deps: Pick<Deps, "repos">,
  delivery: WebhookDelivery,
  result: Omit<DeliveryResult, "nextAttemptAt">,
): Promise<void> {
  return deps.repos.webhookDeliveries.record(delivery.id, { ...result, nextAttemptAt: null });
}

/**
 * The delivery has failed for good and the webhook is turned off with the reason: at once for a
 * 410, after the last retry otherwise. Its owner is mailed (once: only the call that turned it off
 * queues the mail), in the same transaction.
 */
async function giveUp(
  deps: RelayDeps,
  delivery: WebhookDelivery,
  status: number | null,
  error: string,
  gone: boolean,
): Promise<void> {
  const reason = gone
    ? "The receiver answered 410 Gone"
    : `Every attempt failed (${delivery.attempts}); the last: ${error}`.slice(0, 500);
  await deps.repos.unitOfWork.run(async (repos) => {
    await repos.webhookDeliveries.record(delivery.id, {
      state: "failed",
      lastStatus: status,
      lastError: error.slice(0, 500),
      nextAttemptAt: null,
    });
    if (!(await repos.webhooks.disable(delivery.webhookId, reason))) return;
    const webhook = await repos.webhooks.findById(delivery.webhookId);
    if (!webhook) return;
    const now = deps.clock.now();
    await repos.mailQueue.enqueue({
      id: deps.ids.newId(now),
      userId: webhook.userId,
      kind: "webhook_disabled",
      createdAt: now,
    });
  });
}
