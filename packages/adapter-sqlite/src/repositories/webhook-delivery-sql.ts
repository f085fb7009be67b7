import type { WebhookDelivery } from "@psm/core";

// The raw statements of webhook-delivery-repository.ts and their row shapes, apart so that
// query-plans.test.ts can plan them.

/** claimDue's candidates: the partial index of pending deliveries, read in due order, no sort. */
export const DUE_SQL = `SELECT id FROM webhook_deliveries
  WHERE state = 'pending' AND next_attempt_at <= @now ORDER BY next_attempt_at, id LIMIT +@limit`;

/**
 * claimDue's claim: one conditional UPDATE that re-checks each candidate is still pending and due,
 * so a delivery another process claimed since the candidates were read is left to it. The unary
 * `+`s keep the planner on the primary key (a few lookups): without them it may scan the partial
 * index of pending deliveries, which can hold the whole backlog.
 */
export const CLAIM_SQL = `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = @lease
  WHERE id IN (SELECT value FROM json_each(@ids)) AND +state = 'pending' AND +next_attempt_at <= @now
  RETURNING *`;

/**
 * insertMany's statement, one row per element of a JSON array; a row whose webhook is gone (deleted
 * since the caller read it) is skipped rather than failing the rest on the foreign key.
 */
export const INSERT_SQL = `INSERT INTO webhook_deliveries
  (id, webhook_id, event_id, type, payload, attempts, state, last_status, last_error, next_attempt_at, created_at)
  SELECT d.value ->> 0, d.value ->> 1, d.value ->> 2, d.value ->> 3, d.value ->> 4, d.value ->> 5,
    d.value ->> 6, d.value ->> 7, d.value ->> 8, d.value ->> 9, d.value ->> 10
  FROM json_each(@rows) AS d
  WHERE EXISTS (SELECT 1 FROM webhooks WHERE webhooks.id = d.value ->> 1)`;

/** A delivery as one element of INSERT_SQL's JSON array, in its column order. */
export function asRow(delivery: WebhookDelivery): unknown[] {
  return [
    delivery.id,
    delivery.webhookId,
    delivery.eventId,
    delivery.type,
    delivery.payload,
    delivery.attempts,
    delivery.state,
    delivery.lastStatus,
    delivery.lastError,
    delivery.nextAttemptAt?.getTime() ?? null,
    delivery.createdAt.getTime(),
  ];
}

/** A webhook_deliveries row as the raw statements return it. */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  type: WebhookDelivery["type"];
  payload: string;
  attempts: number;
  state: WebhookDelivery["state"];
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number | null;
  created_at: number;
}

/** A row CLAIM_SQL returned, as the port's delivery. */
export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    type: row.type,
    payload: row.payload,
    attempts: row.attempts,
    state: row.state,
    lastStatus: row.last_status,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at === null ? null : new Date(row.next_attempt_at),
    createdAt: new Date(row.created_at),
  };
}
