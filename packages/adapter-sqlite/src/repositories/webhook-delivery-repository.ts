import type { WebhookDelivery, WebhookDeliveryRepository } from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { webhookDeliveries, webhookFanout } from "../schema-events.js";
import {
  asRow,
  CLAIM_SQL,
  type DeliveryRow,
  DUE_SQL,
  INSERT_SQL,
  toDelivery,
} from "./webhook-delivery-sql.js";

/** Rows one insert statement takes, and one sweep statement removes, at most (better-sqlite3 runs a statement to its end on the event loop). */
const STEP = 500;

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
        (SELECT id FROM webhook_deliveries WHERE created_at < @before LIMIT +@step)`,
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
