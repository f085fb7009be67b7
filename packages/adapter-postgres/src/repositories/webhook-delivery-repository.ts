import { isUuid, type WebhookDelivery, type WebhookDeliveryRepository } from "@psm/core";
import { and, desc, eq, getTableColumns, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { webhookDeliveries, webhookFanout } from "../schema-events.js";
import { countInt, idBefore, pageLimit, texts } from "./query-helpers.js";

type Claimed = WebhookDelivery & { dueAt: Date | null };

function dueOrder(a: Claimed, b: Claimed): number {
  const byTime = (a.dueAt?.getTime() ?? 0) - (b.dueAt?.getTime() ?? 0);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Only a literal lets the planner prove a generic plan may read the partial index of pending rows. */
const isPending = sql`${webhookDeliveries.state} = 'pending'`;

/**
 * claimDue's one statement: SKIP LOCKED passes over deliveries another process is claiming right
 * now instead of waiting for them, and the lease is written with the claim. Exported for its plan
 * test.
 */
export function claimStatement(db: Db, now: Date, limit: number, leaseMs: number) {
  const due = db.$with("due").as(
    db
      .select({ dueId: webhookDeliveries.id, dueAt: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(and(isPending, lte(webhookDeliveries.nextAttemptAt, now)))
      .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id)
      .limit(limit)
      .for("update", { skipLocked: true }),
  );
  return db
    .with(due)
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + leaseMs),
    })
    .from(due)
    .where(eq(webhookDeliveries.id, due.dueId))
    .returning({ ...getTableColumns(webhookDeliveries), dueAt: due.dueAt });
}

/** The PostgreSQL WebhookDeliveryRepository, shared safely by several processes. */
export function createWebhookDeliveryRepository(db: Db): WebhookDeliveryRepository {
  return {
    // SKIP LOCKED: a process fanning out holds the row until it commits; the others get no row
    // and pass this round instead of waiting (and then fanning out the same events again).
    takeFanOutCursor: () =>
      guarded(async () => {
        const [row] = await db
          .select({ lastSeq: webhookFanout.lastSeq })
          .from(webhookFanout)
          .where(eq(webhookFanout.id, 1))
          .for("update", { skipLocked: true });
        if (row !== undefined) return row.lastSeq;
        // A plain read waits for no lock: no row at all means the migration's seed is gone, which
        // would stop the fan-out for good; fail rather than report the cursor taken.
        const [exists] = await db.select({ id: webhookFanout.id }).from(webhookFanout);
        if (exists === undefined) throw new Error("webhook_fanout has no row");
        return null;
      }),
    advanceFanOutCursor: (seq) =>
      guarded(async () => {
        await db.update(webhookFanout).set({ lastSeq: seq }).where(eq(webhookFanout.id, 1));
      }),
    // One statement however many rows (one array parameter per column, so no parameter limit).
    // Only rows whose webhook exists go in, and those webhooks are held (KEY SHARE) until the
    // transaction ends: a delete that committed first removes its rows from the insert, one still
    // running is waited for and then does too, and no delete can start before the insert's
    // foreign-key check. So a webhook deleted meanwhile never fails the others' rows.
    insertMany: (rows) =>
      guarded(async () => {
        if (rows.length === 0) return;
        const webhookIds = [...new Set(rows.map((row) => row.webhookId))].filter(isUuid);
        await db.execute(sql`
          with live as (
            select id from webhooks where id = any(${sql.param(webhookIds)}::uuid[]) order by id for key share
          )
          insert into webhook_deliveries (id, webhook_id, event_id, type, payload, attempts, state,
            last_status, last_error, next_attempt_at, created_at)
          select d.id::uuid, d.webhook_id::uuid, d.event_id, d.type, d.payload, d.attempts::int, d.state,
            d.last_status::int, d.last_error, d.next_attempt_at::timestamptz, d.created_at::timestamptz
          from unnest(
            ${texts(rows.map((row) => row.id))}::text[],
            ${texts(rows.map((row) => row.webhookId))}::text[],
            ${texts(rows.map((row) => row.eventId))}::text[],
            ${texts(rows.map((row) => row.type))}::text[],
            ${texts(rows.map((row) => row.payload))}::text[],
            ${texts(rows.map((row) => row.attempts))}::text[],
            ${texts(rows.map((row) => row.state))}::text[],
            ${texts(rows.map((row) => row.lastStatus))}::text[],
            ${texts(rows.map((row) => row.lastError))}::text[],
            ${texts(rows.map((row) => row.nextAttemptAt?.toISOString() ?? null))}::text[],
            ${texts(rows.map((row) => row.createdAt.toISOString()))}::text[]
          ) as d(id, webhook_id, event_id, type, payload, attempts, state, last_status, last_error,
            next_attempt_at, created_at)
          where d.webhook_id::uuid in (select id from live)`);
      }),
    claimDue: (now, limit, leaseMs) =>
      guarded(async () => {
        if (limit <= 0) return [];
        const rows: Claimed[] = await claimStatement(db, now, limit, leaseMs);
        // RETURNING has no order; hand them out oldest due first.
        return rows.sort(dueOrder).map(({ dueAt: _, ...delivery }) => delivery);
      }),
    record: (id, result) =>
      guarded(async () => {
        if (!isUuid(id)) return;
        await db.update(webhookDeliveries).set(result).where(eq(webhookDeliveries.id, id));
      }),
    listByWebhook: (webhookId, page) =>
      guarded(async () => {
        const before = idBefore(webhookDeliveries.id, page);
        if (!isUuid(webhookId)) return [];
        return db
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.webhookId, webhookId), before))
          .orderBy(desc(webhookDeliveries.id))
          .limit(pageLimit(page));
      }),
    // The oldest pending due time is the oldest due one when it is due at all: one pass over the
    // partial index.
    backlog: (now) =>
      guarded(async () => {
        const [row] = await db
          .select({
            pending: countInt,
            oldest: sql<Date | null>`min(${webhookDeliveries.nextAttemptAt})`.mapWith(
              webhookDeliveries.nextAttemptAt,
            ),
          })
          .from(webhookDeliveries)
          .where(isPending);
        const oldest = row?.oldest ?? null;
        return {
          pending: row?.pending ?? 0,
          oldestDueAt: oldest !== null && oldest.getTime() <= now.getTime() ? oldest : null,
        };
      }),
    sweep: (before) =>
      guarded(async () => {
        const rows = await db.delete(webhookDeliveries).where(lt(webhookDeliveries.createdAt, before));
        return rows.count;
      }),
  };
}
