import type { SessionRepository } from "@psm/core";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { sessions } from "../schema-sessions.js";

/** Browser sessions on the `sessions` table. */
export function createSessionRepository(db: Db): SessionRepository {
  // Every signed-in page looks its session up: prepared once, not compiled per request.
  const live = lazy(() =>
    db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder("tokenHash")),
          gt(sessions.expiresAt, sql.placeholder("now")),
        ),
      )
      .prepare(),
  );
  return {
    insert: (session) =>
      guarded(() => {
        db.insert(sessions).values(session).run();
      }),
    // A placeholder is bound as given, without the column's mapping: the instant as stored, in ms.
    find: (tokenHash, now) => guarded(() => live().get({ tokenHash, now: now.getTime() }) ?? null),
    delete: (tokenHash) =>
      guarded(() => {
        db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run();
      }),
    deleteExpired: (now) =>
      guarded(() => db.delete(sessions).where(lte(sessions.expiresAt, now)).run().changes),
  };
}
