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
    // One upsert: SQLite runs one writer at a time, so of racing claims the
    // first inserts and the others find its row live and leave it.
    claim: (record, now) =>
      guarded(() => {
        const taken = db
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
          .returning({ owner: idempotencyKeys.owner })
          .get();
        if (taken?.owner === record.owner) return { claimed: true };
        const row = db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, record.id)).get();
        if (!row) throw new Error("idempotency key vanished between its claim and its read");
        return { claimed: false, record: recordOf(row) };
      }),
    complete: (id, owner, answer) =>
      guarded(
        () =>
          db
            .update(idempotencyKeys)
            .set({ status: answer.status, body: answer.body })
            .where(held(id, owner))
            .run().changes > 0,
      ),
    release: (id, owner) =>
      guarded(() => {
        db.delete(idempotencyKeys).where(held(id, owner)).run();
      }),
    deleteExpired: (now) =>
      guarded(() => db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).run().changes),
  };
}
