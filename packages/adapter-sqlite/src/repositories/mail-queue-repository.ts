import type { MailKind, MailQueueRepository } from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, count, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { mailJobs, resetRequests } from "../schema.js";
import { type CoalescedParams, ENQUEUE_COALESCED_SQL } from "./mail-queue-sql.js";

/** Jobs of one kind created for the user at or after `since`. */
function countSince(db: Pick<Db, "select">, userId: string, kind: MailKind, since: Date): number {
  const row = db
    .select({ n: count() })
    .from(mailJobs)
    .where(and(eq(mailJobs.userId, userId), eq(mailJobs.kind, kind), gte(mailJobs.createdAt, since)))
    .get();
  return row?.n ?? 0;
}

/** MailQueueRepository on drizzle, enqueueCoalesced on a statement of its own (mail-queue-sql.ts). */
export function createMailQueueRepository(sqlite: Database, db: Db): MailQueueRepository {
  const coalesced = lazy(() => sqlite.prepare<CoalescedParams>(ENQUEUE_COALESCED_SQL));
  return {
    // With a limit, BEGIN IMMEDIATE holds the write lock from the count to the
    // insert, so concurrent enqueues (in any process) never pass the limit.
    enqueue: (job, limit) =>
      guarded(() =>
        db.transaction(
          (tx) => {
            if (limit && countSince(tx, job.userId, job.kind, limit.since) >= limit.max) return false;
            tx.insert(mailJobs)
              .values({ ...job, status: "pending", attempts: 0, nextAttemptAt: job.createdAt })
              .run();
            return true;
          },
          { behavior: "immediate" },
        ),
      ),
    enqueueCoalesced: (job, intervalMs) =>
      guarded(
        () =>
          coalesced().run({
            id: job.id,
            userId: job.userId,
            kind: job.kind,
            ref: job.ref,
            createdAt: job.createdAt.getTime(),
            intervalMs,
          }).changes > 0,
      ),
    // BEGIN IMMEDIATE, then select the due jobs and lease them: both statements
    // run under the write lock, so two processes never claim the same job. (One
    // UPDATE ... RETURNING would do too, but its rows come back in no stated
    // order and without the old due time that orders them.)
    claimDue: (now, limit, leaseMs) =>
      guarded(() =>
        db.transaction(
          (tx) => {
            const due = tx
              .select({ id: mailJobs.id })
              .from(mailJobs)
              .where(and(eq(mailJobs.status, "pending"), lte(mailJobs.nextAttemptAt, now)))
              .orderBy(mailJobs.nextAttemptAt, mailJobs.id)
              .limit(limit)
              .all()
              .map((row) => row.id);
            if (due.length === 0) return [];
            const leased = tx
              .update(mailJobs)
              .set({
                attempts: sql`${mailJobs.attempts} + 1`,
                nextAttemptAt: new Date(now.getTime() + leaseMs),
              })
              .where(inArray(mailJobs.id, due))
              .returning()
              .all();
            const byId = new Map(leased.map((job) => [job.id, job]));
            return due.flatMap((id) => byId.get(id) ?? []);
          },
          { behavior: "immediate" },
        ),
      ),
    markSent: (id, now) =>
      guarded(() => {
        db.update(mailJobs).set({ status: "sent", sentAt: now }).where(eq(mailJobs.id, id)).run();
      }),
    // Only a job still pending (being sent) moves: one another process settled after its lease
    // ran out stays settled, and so never meets a newer pending job about the same ref in
    // mail_jobs_pending_ref_unique (DESIGN.md "Notifications").
    reschedule: (id, nextAttemptAt, error) =>
      guarded(() => {
        db.update(mailJobs)
          .set({ nextAttemptAt, lastError: error })
          .where(and(eq(mailJobs.id, id), eq(mailJobs.status, "pending")))
          .run();
      }),
    markFailed: (id, error) =>
      guarded(() => {
        db.update(mailJobs).set({ status: "failed", lastError: error }).where(eq(mailJobs.id, id)).run();
      }),
    findById: (id) => guarded(() => db.select().from(mailJobs).where(eq(mailJobs.id, id)).get() ?? null),
    // One pass over the (status, next_attempt_at) index's pending range.
    backlog: (now) =>
      guarded(() => {
        const row = db
          .select({ pending: count(), oldest: sql<number | null>`min(${mailJobs.nextAttemptAt})` })
          .from(mailJobs)
          .where(eq(mailJobs.status, "pending"))
          .get();
        const oldest = row?.oldest ?? null;
        return {
          pending: row?.pending ?? 0,
          oldestDueAt: oldest !== null && oldest <= now.getTime() ? new Date(oldest) : null,
        };
      }),
    countSince: (userId, kind, since) => guarded(() => countSince(db, userId, kind, since)),
    // One statement, so the count and the insert see the same table: with one
    // writer at a time the bound is exact.
    noteResetRequest: (request, max) =>
      guarded(
        () =>
          db.run(sql`
            INSERT INTO reset_requests (id, email, requested_at)
            SELECT ${request.id}, ${request.email}, ${request.at.getTime()}
            WHERE (SELECT count(*) FROM reset_requests) < ${max}`).changes > 0,
      ),
    // One DELETE ... RETURNING: atomic under SQLite's one writer, and inside a
    // unit of work it commits or rolls back with the unit.
    takeResetRequests: (limit) =>
      guarded(() => {
        // A negative LIMIT is no limit to SQLite.
        if (limit <= 0) return [];
        const oldest = db
          .select({ id: resetRequests.id })
          .from(resetRequests)
          .orderBy(resetRequests.requestedAt, resetRequests.id)
          .limit(limit);
        const rows = db.delete(resetRequests).where(inArray(resetRequests.id, oldest)).returning().all();
        // RETURNING has no stated order.
        return rows
          .map((row) => ({ id: row.id, email: row.email, at: row.requestedAt }))
          .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      }),
  };
}
