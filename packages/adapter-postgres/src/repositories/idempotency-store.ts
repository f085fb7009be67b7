import type { IdempotencyStore } from "@psm/core";
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
  return {
    claim: (record, now) =>
      guarded(async () => {
        // INSERT ... ON CONFLICT DO UPDATE ... WHERE: of racing claims one
        // inserts; each other waits for it, re-checks the WHERE on the row it
        // committed and, finding it live, updates nothing and returns no row.
        const [taken] = await db
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
          .returning({ owner: idempotencyKeys.owner });
        if (taken?.owner === record.owner) return { claimed: true };
        const [row] = await db.select(columns).from(idempotencyKeys).where(eq(idempotencyKeys.id, record.id));
        if (!row) throw new Error("idempotency key vanished between its claim and its read");
        return { claimed: false, record: row };
      }),
    find: (id, now) =>
      guarded(async () => {
        const [row] = await db
          .select(columns)
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.id, id), gt(idempotencyKeys.expiresAt, now)));
        return row ?? null;
      }),
    usage: (caller, now) =>
      guarded(async () => {
        const [row] = await db
          .select({
            keys: sql<number>`count(*)::int`,
            bytes: sql<number>`coalesce(sum(${idempotencyKeys.size}), 0)::bigint`.mapWith(Number),
            next: sql<Date | null>`min(${idempotencyKeys.expiresAt})`.mapWith(idempotencyKeys.expiresAt),
          })
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.caller, caller), gt(idempotencyKeys.expiresAt, now)));
        return { keys: row?.keys ?? 0, bytes: row?.bytes ?? 0, nextExpiry: row?.next ?? null };
      }),
    complete: (id, owner, result) =>
      guarded(async () => {
        const updated = await db
          .update(idempotencyKeys)
          .set({ result, size: Buffer.byteLength(result) })
          .where(held(id, owner))
          .returning({ id: idempotencyKeys.id });
        return updated.length > 0;
      }),
    release: (id, owner) =>
      guarded(async () => {
        const removed = await db
          .delete(idempotencyKeys)
          .where(held(id, owner))
          .returning({ id: idempotencyKeys.id });
        return removed.length > 0;
      }),
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
