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
 * usage, a claim and a completion: each statement is prepared once (built and compiled per call,
 * they cost 100-200 µs each on top of their work). Placeholders are bound as given, without the
 * columns' mapping: instants in ms, as stored.
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
      .prepare(),
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
      .prepare(),
  );
  const usageOf = lazy(() =>
    db
      .select({
        keys: sql<number>`count(*)`,
        bytes: sql<number>`coalesce(sum(${idempotencyKeys.size}), 0)`,
        next: sql<number | null>`min(${idempotencyKeys.expiresAt})`,
      })
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.caller, sql.placeholder("caller")),
          gt(idempotencyKeys.expiresAt, sql.placeholder("now")),
        ),
      )
      .prepare(),
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
      .prepare(),
  );
  const completeRow = lazy(() =>
    db
      .update(idempotencyKeys)
      .set({ result: ph("result"), size: ph("size") })
      .where(held)
      .prepare(),
  );
  const releaseRow = lazy(() => db.delete(idempotencyKeys).where(held).prepare());
  return {
    // One upsert: SQLite runs one writer at a time, so of racing claims the
    // first inserts and the others find its row live and leave it.
    claim: (record, now) =>
      guarded(() => {
        const taken = claimRow().get({
          id: record.id,
          fingerprint: record.fingerprint,
          owner: record.owner,
          leaseUntil: record.leaseUntil.getTime(),
          expiresAt: record.expiresAt.getTime(),
          caller: record.caller ?? null,
          now: now.getTime(),
        });
        if (taken?.owner === record.owner) return { claimed: true };
        const row = byId().get({ id: record.id });
        if (!row) throw new Error("idempotency key vanished between its claim and its read");
        return { claimed: false, record: row };
      }),
    find: (id, now) => guarded(() => live().get({ id, now: now.getTime() }) ?? null),
    usage: (caller, now) =>
      guarded(() => {
        const row = usageOf().get({ caller, now: now.getTime() });
        const next = row?.next ?? null;
        return {
          keys: row?.keys ?? 0,
          bytes: row?.bytes ?? 0,
          nextExpiry: next === null ? null : new Date(next),
        };
      }),
    complete: (id, owner, result) =>
      guarded(() => completeRow().run({ id, owner, result, size: Buffer.byteLength(result) }).changes > 0),
    release: (id, owner) => guarded(() => releaseRow().run({ id, owner }).changes > 0),
    deleteExpired: (now) =>
      guarded(() => db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).run().changes),
  };
}
