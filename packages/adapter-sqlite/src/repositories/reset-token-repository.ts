import type { ResetTokenRepository } from "@psm/core";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db.js";
import { run } from "../db-errors.js";
import { resetTokens } from "../schema.js";

/** ResetTokenRepository on drizzle. */
export function createResetTokenRepository(db: Db): ResetTokenRepository {
  const usable = (tokenHash: string, now: Date) =>
    and(eq(resetTokens.tokenHash, tokenHash), isNull(resetTokens.usedAt), gt(resetTokens.expiresAt, now));

  return {
    insert: (token) =>
      run(() => {
        db.insert(resetTokens).values(token).run();
      }),
    // One conditional UPDATE ... RETURNING: SQLite runs one writer at a time, so
    // of two racing calls only the first finds used_at NULL and gets the user.
    consume: (tokenHash, now) =>
      run(() => {
        const row = db
          .update(resetTokens)
          .set({ usedAt: now })
          .where(usable(tokenHash, now))
          .returning({ userId: resetTokens.userId })
          .get();
        return row?.userId ?? null;
      }),
    isValid: (tokenHash, now) =>
      run(
        () =>
          db.select({ userId: resetTokens.userId }).from(resetTokens).where(usable(tokenHash, now)).get() !==
          undefined,
      ),
    delete: (tokenHash) =>
      run(() => {
        db.delete(resetTokens).where(eq(resetTokens.tokenHash, tokenHash)).run();
      }),
    deleteByUser: (userId) =>
      run(() => {
        db.delete(resetTokens).where(eq(resetTokens.userId, userId)).run();
      }),
  };
}
