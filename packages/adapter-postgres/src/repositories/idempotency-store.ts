import type { IdempotencyRecord, IdempotencyStore } from "@psm/core";
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { idempotencyKeys } from "../schema.js";

type Row = typeof idempotencyKeys.$inferSelect;

function recordOf(row: Row): IdempotencyRecord {
  const { status, body, ...rest } = row;
  return { ...rest, answer: status === null || body === null ? null : { status, body } };
}

/** Idempotency keys on the `idempotency_keys` table. */
export function createIdempotencyStore(db: Db): IdempotencyStore {
  const held = (id: string, owner: string) =>
    and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.owner, owner), isNull(idempotencyKeys.status));
  return {
    claim: (record, now) =>
      guarded(async () => {
        // INSERT ... ON CONFLICT DO UPDATE ... WHERE: of racing claims one
        // inserts; each other waits for it, re-checks the WHERE on the row it
        // committed and, finding it live, updates nothing and returns no row.
        const [taken] = await db
          .insert(idempotencyKeys)
          .values({ ...record, status: null, body: null })
          .onConflictDoUpdate({
            target: idempotencyKeys.id,
            set: { ...record, status: null, body: null },
            setWhere: or(
              lte(idempotencyKeys.expiresAt, now),
              and(isNull(idempotencyKeys.status), lte(idempotencyKeys.leaseUntil, now)),
            ),
          })
          .returning({ owner: idempotencyKeys.owner });
        if (taken?.owner === record.owner) return { claimed: true };
        const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, record.id));
        if (!row) throw new Error("idempotency key vanished between its claim and its read");
        return { claimed: false, record: recordOf(row) };
      }),
    complete: (id, owner, answer) =>
      guarded(async () => {
        const updated = await db
          .update(idempotencyKeys)
          .set({ status: answer.status, body: answer.body })
          .where(held(id, owner))
          .returning({ id: idempotencyKeys.id });
        return updated.length > 0;
      }),
    release: (id, owner) =>
      guarded(async () => {
        await db.delete(idempotencyKeys).where(held(id, owner));
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
