import { EVENT_TYPES, type EventType, type MarketEvent } from "./event.js";

/**
 * A URL that receives a user's events as signed POSTs (decisions.md 1.3.0 "Webhooks", Standard
 * Webhooks 1.0.0). Its secrets sign; they cannot be hashed, since signing needs them, so they are
 * shown to the owner once and never again on any surface.
 */
export interface Webhook {
  id: string;
  userId: string;
  url: string;
  /** The event types it receives (never `webhook.test`: a test goes to the webhook it tests). */
  types: readonly EventType[];
  description: string;
  enabled: boolean;
  /** Why it was turned off by the relay (a 410, the last retry failing); null when enabled or turned off by its owner. */
  disabledReason: string | null;
  /** Newest first. During a rotation's grace the previous secret signs beside the new one. */
  secrets: readonly WebhookSecret[];
  createdAt: Date;
}

export interface WebhookSecret {
  /** `whsec_` + base64 of 32 random bytes. */
  value: string;
  /** When it stops signing; null: while it is the newest. */
  expiresAt: Date | null;
}

export type DeliveryState = "pending" | "succeeded" | "failed";

/** One event on its way to one webhook, with every attempt's outcome folded in. */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  /** The event's id: the `webhook-id` header, the same on every attempt and replay. */
  eventId: string;
  type: EventType;
  /** The exact JSON body sent: `{type, timestamp, data}`. */
  payload: string;
  attempts: number;
  state: DeliveryState;
  lastStatus: number | null;
  lastError: string | null;
  /** When the next attempt may start (also the lease end while one runs); null once settled. */
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** The event types a webhook may subscribe to. */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES.filter(
  (type): type is Exclude<EventType, "webhook.test"> => type !== "webhook.test",
);

export const MAX_WEBHOOKS_PER_USER = 10;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** How long a replaced secret keeps signing beside its successor. */
export const SECRET_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;
/** How long deliveries are kept (events: 90 days). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Seconds before each retry of a failed delivery (WEBHOOK_RETRY_SCHEDULE). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 86400];
/**
 * How long a claimed delivery is leased to the process sending it: longer than the transport's
 * 15 s timeout, so two processes never send one delivery at once; a crashed sender's lease runs out
 * and the delivery is tried again (at least once, never lost).
 */
export const DELIVERY_LEASE_MS = 60_000;
/** The most events one replay queues again. */
export const MAX_REPLAY_EVENTS = 1000;

/** The body of a delivery, as Standard Webhooks shapes it. */
export function deliveryPayload(event: Pick<MarketEvent, "type" | "occurredAt" | "data">): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data });
}

/** The secrets that sign at `now`, newest first. */
export function signingSecrets(webhook: Pick<Webhook, "secrets">, now: Date): string[] {
  return webhook.secrets
    .filter((secret) => secret.expiresAt === null || secret.expiresAt.getTime() > now.getTime())
    .map((secret) => secret.value);
}

/** Whether `event` goes to `webhook`: a test to the webhook it names, anything else by type and age. */
export function receives(webhook: Webhook, event: MarketEvent): boolean {
  if (!webhook.enabled || webhook.userId !== event.userId) return false;
  if (event.type === "webhook.test") return event.data.webhook_id === webhook.id;
  return webhook.types.includes(event.type) && event.occurredAt.getTime() >= webhook.createdAt.getTime();
}

/**
 * When the attempt after `attempts` failed ones may start, or null when the schedule is spent:
 * the schedule's delay with ±10 % jitter (`unit` in [0, 1)), never before the receiver's Retry-After.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attempts: number,
  now: Date,
  unit: number,
  retryAfterMs?: number,
): Date | null {
  const seconds = schedule[attempts - 1];
  if (seconds === undefined) return null;
  const delayMs = seconds * 1000 * (0.9 + 0.2 * unit);
  return new Date(now.getTime() + Math.round(Math.max(delayMs, retryAfterMs ?? 0)));
}
