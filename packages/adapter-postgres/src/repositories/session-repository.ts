import type { SessionRepository } from "@psm/core";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { asArrays } from "../array-rows.js";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { sessions } from "../schema-sessions.js";

/** Browser sessions on the `sessions` table; `reads`: where the lookup runs (ListingRepositoryOptions.reads). */
export function createSessionRepository(db: Db, reads: Db = db): SessionRepository {
  // Every signed-in page looks its session up: built once, not by drizzle on every request.
  const live = lazy(() =>
    asArrays(
      reads
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.tokenHash, sql.placeholder("tokenHash")),
            gt(sessions.expiresAt, sql.placeholder("now")),
          ),
        )
        .prepare("session_live"),
    ),
  );
  return {
    insert: (session) =>
      guarded(async () => {
        await db.insert(sessions).values(session);
      }),
    // A placeholder is bound as given, without the column's mapping: the instant as ISO text.
    find: (tokenHash, now) =>
      guarded(async () => {
        const [row] = await live()({ tokenHash, now: now.toISOString() });
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
