import { isUuid, type MailJob, type MailKind, type MailQueueRepository, MarketplaceError } from "@psm/core";
import { and, eq, getTableColumns, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db, Transaction } from "../connection.js";
import { guarded } from "../db-errors.js";
import { mailJobs } from "../schema.js";
import { resetRequests } from "../schema-events.js";
import { countInt, lockUser } from "./query-helpers.js";

type Claimed = MailJob & { dueAt: Date };

function dueOrder(a: Claimed, b: Claimed): number {
  const byTime = a.dueAt.getTime() - b.dueAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

type NewJob = { id: string; userId: string; kind: MailKind; createdAt: Date };

/**
 * enqueueCoalesced's one statement: a pending job due at greatest(created_at, the last job about
 * the ref + interval), unless one about the same (user, kind, ref) is pending. The partial unique
 * index mail_jobs_pending_ref_idx is the arbiter, so of racing calls one inserts and the others,
 * after waiting for it to commit, do nothing (a check before the insert could not see an
 * uncommitted row). The predicate is a literal, as the index's, so ON CONFLICT can infer it. The
 * last job is one backward seek of mail_jobs_user_id_kind_ref_created_at_idx. Exported for its plan test.
 */
export function coalescedStatement(
  job: NewJob & { ref: string },
  intervalMs: number,
): ReturnType<typeof sql> {
  const created = job.createdAt.toISOString();
  return sql`
    insert into ${mailJobs} (id, user_id, kind, ref, status, attempts, next_attempt_at, created_at)
    select ${job.id}::uuid, ${job.userId}::uuid, ${job.kind}::text, ${job.ref}::text, 'pending', 0,
      greatest(${created}::timestamptz, (
        select max(created_at) from ${mailJobs}
        where user_id = ${job.userId}::uuid and kind = ${job.kind}::text and ref = ${job.ref}::text
      ) + ${intervalMs}::double precision * interval '1 millisecond'),
      ${created}::timestamptz
    on conflict (user_id, kind, ref) where status = 'pending' do nothing
    returning id`;
}

async function countSince(
  db: Db | Transaction,
  userId: string,
  kind: MailKind,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: countInt })
    .from(mailJobs)
    .where(and(eq(mailJobs.userId, userId), eq(mailJobs.kind, kind), gte(mailJobs.createdAt, since)));
  return row?.n ?? 0;
}

/** The PostgreSQL MailQueueRepository, shared safely by several processes. */
export function createMailQueueRepository(db: Db): MailQueueRepository {
  const setWhere = (id: string, set: Partial<typeof mailJobs.$inferInsert>) =>
    guarded(async () => {
      if (!isUuid(id)) return;
      await db.update(mailJobs).set(set).where(eq(mailJobs.id, id));
    });

  return {
    enqueue: (job: NewJob, limit?: { since: Date; max: number }) =>
      guarded(async () => {
        const row = { ...job, status: "pending" as const, attempts: 0, nextAttemptAt: job.createdAt };
        if (limit === undefined) {
          await db.insert(mailJobs).values(row);
          return true;
        }
        return db.transaction(async (tx) => {
          await lockUser(tx, job.userId);
          if ((await countSince(tx, job.userId, job.kind, limit.since)) >= limit.max) return false;
          await tx.insert(mailJobs).values(row);
          return true;
        });
      }),
    enqueueCoalesced: (job, intervalMs) =>
      guarded(async () => {
        if (!isUuid(job.userId)) throw new MarketplaceError("user_not_found");
        const rows = await db.execute(coalescedStatement(job, intervalMs));
        return rows.length > 0;
      }),
    claimDue: (now, limit, leaseMs) =>
      guarded(async () => {
        if (limit <= 0) return [];
        // SKIP LOCKED: a job another process is claiming right now is passed
        // over, not waited for, and the lease is written in the same statement.
        const due = db.$with("due").as(
          db
            .select({ dueId: mailJobs.id, dueAt: mailJobs.nextAttemptAt })
            .from(mailJobs)
            .where(and(eq(mailJobs.status, "pending"), lte(mailJobs.nextAttemptAt, now)))
            .orderBy(mailJobs.nextAttemptAt, mailJobs.id)
            .limit(limit)
            .for("update", { skipLocked: true }),
        );
        const rows: Claimed[] = await db
          .with(due)
          .update(mailJobs)
          .set({ attempts: sql`${mailJobs.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs) })
          .from(due)
          .where(eq(mailJobs.id, due.dueId))
          .returning({ ...getTableColumns(mailJobs), dueAt: due.dueAt });
        // RETURNING has no order; hand jobs out oldest due first.
        return rows.sort(dueOrder).map(({ dueAt: _, ...job }) => job);
      }),
    markSent: (id, now) => setWhere(id, { status: "sent", sentAt: now }),
    // Only a job still pending (being sent) moves: one another process settled after its lease
    // ran out stays settled, and so never meets a newer pending job about the same ref in
    // mail_jobs_pending_ref_idx (DESIGN.md "Notifications").
    reschedule: (id, nextAttemptAt, error) =>
      guarded(async () => {
        if (!isUuid(id)) return;
        await db
          .update(mailJobs)
          .set({ nextAttemptAt, lastError: error })
          .where(and(eq(mailJobs.id, id), eq(mailJobs.status, "pending")));
      }),
    markFailed: (id, error) => setWhere(id, { status: "failed", lastError: error }),
    findById: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        const [row] = await db.select().from(mailJobs).where(eq(mailJobs.id, id));
        return row ?? null;
      }),
    // One pass over the (status, next_attempt_at) index's pending range.
    backlog: (now) =>
      guarded(async () => {
        const [row] = await db
          .select({
            pending: countInt,
            oldest: sql<Date | null>`min(${mailJobs.nextAttemptAt})`.mapWith(mailJobs.nextAttemptAt),
          })
          .from(mailJobs)
          .where(eq(mailJobs.status, "pending"));
        const oldest = row?.oldest ?? null;
        return {
          pending: row?.pending ?? 0,
          oldestDueAt: oldest !== null && oldest.getTime() <= now.getTime() ? oldest : null,
        };
      }),
    countSince: (userId, kind, since) =>
      guarded(async () => (isUuid(userId) ? countSince(db, userId, kind, since) : 0)),
    // One statement, one round trip, whatever the address. Under READ
    // COMMITTED concurrent notes each count without the others' rows, so the
    // bound can be passed by at most their number: a bound on growth, not a quota.
    noteResetRequest: (request, max) =>
      guarded(async () => {
        const rows = await db.execute(sql`
          INSERT INTO ${resetRequests} (id, email, requested_at)
          SELECT ${request.id}::uuid, ${request.email}::text, ${request.at.toISOString()}::timestamptz
          WHERE (SELECT count(*) FROM ${resetRequests}) < ${max}::int
          RETURNING id`);
        return rows.length > 0;
      }),
    takeResetRequests: (limit) =>
      guarded(async () => {
        if (limit <= 0) return [];
        // SKIP LOCKED: requests another process's round has taken but not yet
        // committed are passed over, not waited for; if that round rolls back
        // they are there for the next one.
        const oldest = db
          .select({ id: resetRequests.id })
          .from(resetRequests)
          .orderBy(resetRequests.requestedAt, resetRequests.id)
          .limit(limit)
          .for("update", { skipLocked: true });
        const rows = await db.delete(resetRequests).where(inArray(resetRequests.id, oldest)).returning();
        // RETURNING has no order.
        return rows
          .map((row) => ({ id: row.id, email: row.email, at: row.requestedAt }))
          .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      }),
  };
}
