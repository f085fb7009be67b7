import type { IdempotencyRecord, IdempotencyStore } from "@psm/core";
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
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

/** Idempotency keys on the `idempotency_keys` table. */
export function createIdempotencyStore(db: Db): IdempotencyStore {
  const held = (id: string, owner: string) =>
    and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.owner, owner), isNull(idempotencyKeys.result));
  const read = (id: string): IdempotencyRecord | undefined =>
    db.select(columns).from(idempotencyKeys).where(eq(idempotencyKeys.id, id)).get();
  return {
    // One upsert: SQLite runs one writer at a time, so of racing claims the
    // first inserts and the others find its row live and leave it.
    claim: (record, now) =>
      guarded(() => {
        const taken = db
          .insert(idempotencyKeys)
          .values({ ...record, result: null })
          .onConflictDoUpdate({
            target: idempotencyKeys.id,
            set: { ...record, result: null, size: 0 },
            setWhere: or(
              lte(idempotencyKeys.expiresAt, now),
              and(isNull(idempotencyKeys.result), lte(idempotencyKeys.leaseUntil, now)),
            ),
          })
          .returning({ owner: idempotencyKeys.owner })
          .get();
        if (taken?.owner === record.owner) return { claimed: true };
        const row = read(record.id);
        if (!row) throw new Error("idempotency key vanished between its claim and its read");
        return { claimed: false, record: row };
      }),
    find: (id, now) =>
      guarded(
        () =>
          db
            .select(columns)
            .from(idempotencyKeys)
            .where(and(eq(idempotencyKeys.id, id), gt(idempotencyKeys.expiresAt, now)))
            .get() ?? null,
      ),
    usage: (caller, now) =>
      guarded(() => {
        const row = db
          .select({
            keys: sql<number>`count(*)`,
            bytes: sql<number>`coalesce(sum(${idempotencyKeys.size}), 0)`,
            next: sql<number | null>`min(${idempotencyKeys.expiresAt})`,
          })
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.caller, caller), gt(idempotencyKeys.expiresAt, now)))
          .get();
        const next = row?.next ?? null;
        return {
          keys: row?.keys ?? 0,
          bytes: row?.bytes ?? 0,
          nextExpiry: next === null ? null : new Date(next),
        };
      }),
    complete: (id, owner, result) =>
      guarded(
        () =>
          db
            .update(idempotencyKeys)
            .set({ result, size: Buffer.byteLength(result) })
            .where(held(id, owner))
            .run().changes > 0,
      ),
    release: (id, owner) =>
      guarded(() => db.delete(idempotencyKeys).where(held(id, owner)).run().changes > 0),
    deleteExpired: (now) =>
      guarded(() => db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).run().changes),
  };
}
