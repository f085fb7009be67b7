import type { IdempotencyStore } from "@psm/core";
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { idempotencyKeys } from "../schema-sessions.js";

// 1.2's `status` and `body` are never read or written here (schema.ts says why they remain).
const columns = {
  id: idempotencyKeys.id,
  fingerprint: idempotencyKeys.fingerprint,
  owner: idempotencyKeys.owner,
  leaseUntil: idempotencyKeys.leaseUntil,
  expiresAt: idempotencyKeys.expiresAt,
  result: idempotencyKeys.result,
};

const ph = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * Idempotency keys on the `idempotency_keys` table. A keyed request runs a find, the caller's
 * usage and a claim on the pool: each built by drizzle once, not on every call. The completion
 * runs inside the request's unit of work, whose repositories are built over its transaction.
 * Placeholders are bound as given, without the columns' mapping: instants as ISO text.
 */
export function createIdempotencyStore(db: Db): IdempotencyStore {
  const held = and(
    eq(idempotencyKeys.id, sql.placeholder("id")),
    eq(idempotencyKeys.owner, sql.placeholder("owner")),
    isNull(idempotencyKeys.result),
  );
  const byId = lazy(() =>
    db
      .select(columns)
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.id, sql.placeholder("id")))
      .prepare("idempotency_by_id"),
  );
  const live = lazy(() =>
    db
      .select(columns)
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.id, sql.placeholder("id")),
          gt(idempotencyKeys.expiresAt, sql.placeholder("now")),
        ),
      )
      .prepare("idempotency_live"),
  );
  const usageOf = lazy(() =>
    db
      .select({
        keys: sql<number>`count(*)::int`,
        bytes: sql<number>`coalesce(sum(${idempotencyKeys.size}), 0)::bigint`.mapWith(Number),
        next: sql<Date | null>`min(${idempotencyKeys.expiresAt})`.mapWith(idempotencyKeys.expiresAt),
      })
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.caller, sql.placeholder("caller")),
          gt(idempotencyKeys.expiresAt, sql.placeholder("now")),
        ),
      )
      .prepare("idempotency_usage"),
  );
  // A claim taking over a lapsed record rewrites all of it, its caller included (null when uncounted).
  const claimed = {
    id: ph("id"),
    fingerprint: ph("fingerprint"),
    owner: ph("owner"),
    leaseUntil: ph("leaseUntil"),
    expiresAt: ph("expiresAt"),
    caller: ph("caller"),
  };
  // INSERT ... ON CONFLICT DO UPDATE ... WHERE: of racing claims one inserts; each other waits
  // for it, re-checks the WHERE on the row it committed and, finding it live, updates nothing
  // and returns no row.
  const claimRow = lazy(() =>
    db
      .insert(idempotencyKeys)
      .values({ ...claimed, result: null })
      .onConflictDoUpdate({
        target: idempotencyKeys.id,
        set: { ...claimed, result: null, size: 0 },
        setWhere: or(
          lte(idempotencyKeys.expiresAt, ph("now")),
          and(isNull(idempotencyKeys.result), lte(idempotencyKeys.leaseUntil, ph("now"))),
        ),
      })
      .returning({ owner: idempotencyKeys.owner })
      .prepare("idempotency_claim"),
  );
  const completeRow = lazy(() =>
    db
      .update(idempotencyKeys)
      .set({ result: ph("result"), size: ph("size") })
      .where(held)
      .returning({ id: idempotencyKeys.id })
      .prepare("idempotency_complete"),
  );
  const releaseRow = lazy(() =>
    db
      .delete(idempotencyKeys)
      .where(held)
      .returning({ id: idempotencyKeys.id })
      .prepare("idempotency_release"),
  );
  return {
    claim: (record, now) =>
      guarded(async () => {
        const [taken] = await claimRow().execute({
          id: record.id,
          fingerprint: record.fingerprint,
          owner: record.owner,
          leaseUntil: record.leaseUntil.toISOString(),
          expiresAt: record.expiresAt.toISOString(),
          caller: record.caller ?? null,
          now: now.toISOString(),
        });
        if (taken?.owner === record.owner) return { claimed: true };
        const [row] = await byId().execute({ id: record.id });
        if (!row) throw new Error("idempotency key vanished between its claim and its read");
        return { claimed: false, record: row };
      }),
    find: (id, now) =>
      guarded(async () => {
        const [row] = await live().execute({ id, now: now.toISOString() });
        return row ?? null;
      }),
    usage: (caller, now) =>
      guarded(async () => {
        const [row] = await usageOf().execute({ caller, now: now.toISOString() });
        return { keys: row?.keys ?? 0, bytes: row?.bytes ?? 0, nextExpiry: row?.next ?? null };
      }),
    complete: (id, owner, result) =>
      guarded(
        async () =>
          (await completeRow().execute({ id, owner, result, size: Buffer.byteLength(result) })).length > 0,
      ),
    release: (id, owner) => guarded(async () => (await releaseRow().execute({ id, owner })).length > 0),
    deleteExpired: (now) =>
      guarded(async () => {
        const removed = await db
          .delete(idempotencyKeys)
          .where(lte(idempotencyKeys.expiresAt, now))
          .returning({ id: idempotencyKeys.id });
        return removed.length;
      }),
  };
}
