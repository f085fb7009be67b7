import type { ResetTokenRepository } from "@psm/core";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import type { TokenTable } from "../schema.js";

/** A single-use token store on one token table (reset or verification tokens). */
export function createTokenRepository(db: Db, table: TokenTable): ResetTokenRepository {
  const usable = (tokenHash: string, now: Date) =>
    and(eq(table.tokenHash, tokenHash), isNull(table.usedAt), gt(table.expiresAt, now));

  return {
    insert: (token) =>
      guarded(() => {
        db.insert(table).values(token).run();
      }),
    // One conditional UPDATE ... RETURNING: SQLite runs one writer at a time, so
    // of two racing calls only the first finds used_at NULL and gets the user.
    consume: (tokenHash, now) =>
      guarded(() => {
        const row = db
          .update(table)
          .set({ usedAt: now })
          .where(usable(tokenHash, now))
          .returning({ userId: table.userId })
          .get();
        return row?.userId ?? null;
      }),
    isValid: (tokenHash, now) =>
      guarded(
        () =>
          db.select({ userId: table.userId }).from(table).where(usable(tokenHash, now)).get() !== undefined,
      ),
    delete: (tokenHash) =>
      guarded(() => {
        db.delete(table).where(eq(table.tokenHash, tokenHash)).run();
      }),
    deleteByUser: (userId) =>
      guarded(() => {
        db.delete(table).where(eq(table.userId, userId)).run();
      }),
  };
}
