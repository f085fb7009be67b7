import type { SessionRepository } from "@psm/core";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { sessions } from "../schema-sessions.js";

/** Browser sessions on the `sessions` table. */
export function createSessionRepository(db: Db): SessionRepository {
  return {
    insert: (session) =>
      guarded(() => {
        db.insert(sessions).values(session).run();
      }),
    find: (tokenHash, now) =>
      guarded(
        () =>
          db
            .select()
            .from(sessions)
            .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
            .get() ?? null,
      ),
    delete: (tokenHash) =>
      guarded(() => {
        db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run();
      }),
    deleteExpired: (now) =>
      guarded(() => db.delete(sessions).where(lte(sessions.expiresAt, now)).run().changes),
  };
}
