import type { SessionRepository } from "@psm/core";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { sessions } from "../schema-sessions.js";

/** Browser sessions on the `sessions` table. */
export function createSessionRepository(db: Db): SessionRepository {
  return {
    insert: (session) =>
      guarded(async () => {
        await db.insert(sessions).values(session);
      }),
    find: (tokenHash, now) =>
      guarded(async () => {
        const [row] = await db
          .select()
          .from(sessions)
          .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
        return row ?? null;
      }),
    delete: (tokenHash) =>
      guarded(async () => {
        await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
      }),
    deleteExpired: (now) =>
      guarded(async () => {
        const removed = await db
          .delete(sessions)
          .where(lte(sessions.expiresAt, now))
          .returning({ tokenHash: sessions.tokenHash });
        return removed.length;
      }),
  };
}
