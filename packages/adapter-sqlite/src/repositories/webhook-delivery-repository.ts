import type { WebhookDelivery, WebhookDeliveryRepository } from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { webhookDeliveries, webhookFanout } from "../schema.js";

/** Rows one insert statement takes, and one sweep statement removes, at most (better-sqlite3 runs a statement to its end on the event loop). */
const STEP = 500;

/** claimDue's candidates: the partial index of pending deliveries, read in due order, no sort. */
export const DUE_SQL = `SELECT id FROM webhook_deliveries
  WHERE state = 'pending' AND next_attempt_at <= @now ORDER BY next_attempt_at, id LIMIT @limit`;

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

function asRow(delivery: WebhookDelivery): unknown[] {
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
interface DeliveryRow {
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

function toDelivery(row: DeliveryRow): WebhookDelivery {
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

function prepareStatements(sqlite: Database) {
  const insert = sqlite.prepare<{ rows: string }>(INSERT_SQL);
  return {
    due: sqlite.prepare<{ now: number; limit: number }, string>(DUE_SQL).pluck(),
    claim: sqlite.prepare<{ ids: string; now: number; lease: number }, DeliveryRow>(CLAIM_SQL),
    // Chunks in one transaction (a savepoint inside a unit of work): all of them or none.
    insertAll: sqlite.transaction((rows: readonly WebhookDelivery[]) => {
      for (let at = 0; at < rows.length; at += STEP) {
        insert.run({ rows: JSON.stringify(rows.slice(at, at + STEP).map(asRow)) });
      }
    }),
    sweepStep: sqlite.prepare<{ before: number; step: number }>(
      `DELETE FROM webhook_deliveries WHERE id IN
        (SELECT id FROM webhook_deliveries WHERE created_at < @before LIMIT @step)`,
    ),
  };
}

/**
 * WebhookDeliveryRepository on better-sqlite3 and drizzle. SQLite has one writer at a time and a
 * unit of work holds the write lock from its start, so the fan-out cursor needs no lock of its own.
 */
export function createWebhookDeliveryRepository(sqlite: Database, db: Db): WebhookDeliveryRepository {
  const statements = lazy(() => prepareStatements(sqlite));
  return {
    takeFanOutCursor: () =>
      guarded(() => {
        const row = db
          .select({ lastSeq: webhookFanout.lastSeq })
          .from(webhookFanout)
          .where(eq(webhookFanout.id, 1))
          .get();
        // Without its row the fan-out would never move: fail rather than report it taken.
        if (row === undefined) throw new Error("webhook_fanout has no row");
        return row.lastSeq;
      }),
    advanceFanOutCursor: (seq) =>
      guarded(() => {
        db.update(webhookFanout).set({ lastSeq: seq }).where(eq(webhookFanout.id, 1)).run();
      }),
    insertMany: (rows) =>
      guarded(() => {
        if (rows.length > 0) statements().insertAll(rows);
      }),
    // Two statements, no transaction: the UPDATE is the claim and re-checks each row, so it is
    // atomic on its own; the SELECT before it picks the candidates and their order (RETURNING has
    // no stated order and cannot show the due time the UPDATE replaced).
    claimDue: (now, limit, leaseMs) =>
      guarded(() => {
        if (limit <= 0) return [];
        const due = statements().due.all({ now: now.getTime(), limit });
        if (due.length === 0) return [];
        const claimed = statements().claim.all({
          ids: JSON.stringify(due),
          now: now.getTime(),
          lease: now.getTime() + leaseMs,
        });
        const byId = new Map(claimed.map((row) => [row.id, toDelivery(row)]));
        return due.flatMap((id) => byId.get(id) ?? []);
      }),
    record: (id, result) =>
      guarded(() => {
        db.update(webhookDeliveries).set(result).where(eq(webhookDeliveries.id, id)).run();
      }),
    listByWebhook: (webhookId, page) =>
      guarded(() =>
        db
          .select()
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.webhookId, webhookId),
              page.before === undefined ? undefined : lt(webhookDeliveries.id, page.before),
            ),
          )
          .orderBy(desc(webhookDeliveries.id))
          .limit(Math.max(0, page.limit))
          .all(),
      ),
    // The oldest pending due time is the oldest due one when it is due at all: one pass over the
    // partial index.
    backlog: (now) =>
      guarded(() => {
        const row = db
          .select({
            pending: sql<number>`count(*)`,
            oldest: sql<number | null>`min(${webhookDeliveries.nextAttemptAt})`,
          })
          .from(webhookDeliveries)
          // A literal, not a parameter: only then may SQLite read the partial index.
          .where(sql`${webhookDeliveries.state} = 'pending'`)
          .get();
        const oldest = row?.oldest ?? null;
        return {
          pending: row?.pending ?? 0,
          oldestDueAt: oldest !== null && oldest <= now.getTime() ? new Date(oldest) : null,
        };
      }),
    async sweep(before) {
      let removed = 0;
      for (;;) {
        const step = await guarded(
          () => statements().sweepStep.run({ before: before.getTime(), step: STEP }).changes,
        );
        removed += step;
        if (step < STEP) return removed;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
  };
}
