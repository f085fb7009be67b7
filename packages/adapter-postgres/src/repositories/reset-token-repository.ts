import { isUuid, type ResetToken, type ResetTokenRepository } from "@psm/core";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import type { TokenTable } from "../schema.js";

/** A single-use token store on one token table (reset or verification tokens), keyed by digest. */
export function createTokenRepository(db: Db, table: TokenTable): ResetTokenRepository {
  const usableAt = (tokenHash: string, now: Date) =>
    and(eq(table.tokenHash, tokenHash), isNull(table.usedAt), gt(table.expiresAt, now));

  return {
    insert: (token: ResetToken) =>
      guarded(async () => {
        await db.insert(table).values(token);
      }),
    consume: (tokenHash, now) =>
      guarded(async () => {
        // Test and mark in one UPDATE: of two racing calls, the second waits on
        // the row lock, re-checks used_at and matches nothing.
        const [row] = await db
          .update(table)
          .set({ usedAt: now })
          .where(usableAt(tokenHash, now))
          .returning({ userId: table.userId });
        return row?.userId ?? null;
      }),
    isValid: (tokenHash, now) =>
      guarded(async () => {
        const rows = await db.select({ userId: table.userId }).from(table).where(usableAt(tokenHash, now));
        return rows.length > 0;
      }),
    delete: (tokenHash) =>
      guarded(async () => {
        await db.delete(table).where(eq(table.tokenHash, tokenHash));
      }),
    deleteByUser: (userId) =>
      guarded(async () => {
        if (!isUuid(userId)) return;
        await db.delete(table).where(eq(table.userId, userId));
      }),
  };
}
