import type { ResetToken, ResetTokenRepository } from "@psm/core";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "../connection.js";
import { guarded, isUuid } from "../db-errors.js";
import { resetTokens } from "../schema.js";

/** The PostgreSQL ResetTokenRepository, keyed by digest. */
export function createResetTokenRepository(db: Database): ResetTokenRepository {
  const usableAt = (tokenHash: string, now: Date) =>
    and(eq(resetTokens.tokenHash, tokenHash), isNull(resetTokens.usedAt), gt(resetTokens.expiresAt, now));

  return {
    insert: (token: ResetToken) =>
      guarded(async () => {
        await db.insert(resetTokens).values(token);
      }),
    consume: (tokenHash, now) =>
      guarded(async () => {
        // Test and mark in one UPDATE: of two racing calls, the second waits on
        // the row lock, re-checks used_at and matches nothing.
        const [row] = await db
          .update(resetTokens)
          .set({ usedAt: now })
          .where(usableAt(tokenHash, now))
          .returning({ userId: resetTokens.userId });
        return row?.userId ?? null;
      }),
    isValid: (tokenHash, now) =>
      guarded(async () => {
        const rows = await db
          .select({ userId: resetTokens.userId })
          .from(resetTokens)
          .where(usableAt(tokenHash, now));
        return rows.length > 0;
      }),
    delete: (tokenHash) =>
      guarded(async () => {
        await db.delete(resetTokens).where(eq(resetTokens.tokenHash, tokenHash));
      }),
    deleteByUser: (userId) =>
      guarded(async () => {
        if (!isUuid(userId)) return;
        await db.delete(resetTokens).where(eq(resetTokens.userId, userId));
      }),
  };
}
