import type { PageQuery } from "../domain/page.js";
import type { Webhook, WebhookDelivery } from "../domain/webhook.js";

/** Storage of webhooks; the caller checks ownership (core does, on every access). */
export interface WebhookRepository {
  /**
   * Stores the webhook unless its user already has `max`: the count and the insert are one atomic
   * step, also against concurrent inserts for the same user. False, storing nothing, at the limit.
   */
  insertWithinLimit(webhook: Webhook, max: number): Promise<boolean>;
  findById(id: string): Promise<Webhook | null>;
  /** One user's webhooks, id descending (newest first). */
  listByUser(userId: string, page: PageQuery): Promise<Webhook[]>;
  /** Enabled webhooks of any of these users. */
  listEnabledFor(userIds: readonly string[]): Promise<Webhook[]>;
  /** Replaces url, types, description, enabled, disabledReason and secrets. False when it does not exist. */
  update(webhook: Webhook): Promise<boolean>;
  /**
   * Turns an enabled webhook off with `reason`, in one conditional write: true only for the call
   * that turned it off, so exactly one caller mails its owner.
   */
  disable(id: string, reason: string): Promise<boolean>;
  /** Removes the webhook and its deliveries. False when it did not exist. */
  delete(id: string): Promise<boolean>;
}

/** What one attempt at a delivery came to. */
export interface DeliveryResult {
  state: WebhookDelivery["state"];
  lastStatus: number | null;
  lastError: string | null;
  /** Pending: when to try again; settled: null. */
  nextAttemptAt: Date | null;
}

/**
 * Deliveries, and the fan-out that makes them from the event log. Shared by every server process
 * on one database: claims are leases, so two processes never send one delivery at once.
 */
export interface WebhookDeliveryRepository {
  /**
   * The seq of the last event fanned out to deliveries, held for the caller's unit of work; null
   * when another process holds it (it is fanning out now). Only meaningful inside a unit of work.
   */
  takeFanOutCursor(): Promise<number | null>;
  /** Moves the fan-out cursor forward (within the unit of work that took it). */
  advanceFanOutCursor(seq: number): Promise<void>;
  insertMany(deliveries: readonly WebhookDelivery[]): Promise<void>;
  /**
   * Claims up to `limit` pending deliveries due at `now`, oldest first: each gets attempts + 1 and
   * nextAttemptAt = now + leaseMs. Two callers never claim one delivery while its lease runs.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<WebhookDelivery[]>;
  record(id: string, result: DeliveryResult): Promise<void>;
  /** One webhook's deliveries, id descending (newest first). */
  listByWebhook(webhookId: string, page: PageQuery): Promise<WebhookDelivery[]>;
  /** Pending deliveries and the age of the oldest due one (for metrics). */
  backlog(now: Date): Promise<{ pending: number; oldestDueAt: Date | null }>;
  /** Removes deliveries created before `before`; answers how many. */
  sweep(before: Date): Promise<number>;
}
