import type { ApiKeyRepository } from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy, lazyPerShape, limitPlaceholder } from "../lazy.js";
import { apiKeys } from "../schema.js";
import { API_KEY_COLUMNS, type KeyWithUserRow, toKeyWithUser, USER_COLUMNS } from "./user-rows.js";

/**
 * ApiKeyRepository on drizzle; the lookup by digest is prepared once (every keyed request runs it).
 * findByHashWithUser reads the key and its user in one statement: 12 µs against 20 for the two
 * lookups, each its own read transaction, on bench:http's database, as an array mapped in
 * user-rows.ts. Its digest is compared with `+?`: with a bare `= ?` SQLite 3.54 compiled the join
 * again at every binding (26 µs).
 */
export function createApiKeyRepository(sqlite: Database, db: Db): ApiKeyRepository {
  const byHash = lazy(() =>
    db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, sql.placeholder("keyHash")))
      .prepare(),
  );
  const withUserByHash = lazy(() =>
    sqlite
      .prepare<[string], KeyWithUserRow>(
        `SELECT ${API_KEY_COLUMNS}, ${USER_COLUMNS} FROM api_keys AS k LEFT JOIN users AS u ON u.id = k.user_id
          WHERE k.key_hash = +?`,
      )
      .raw(),
  );
  const byId = lazy(() =>
    db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, sql.placeholder("id")))
      .prepare(),
  );
  // The keys page of every signed-in caller runs one of these shapes: each prepared once.
  const prepareList = (byUser: boolean, paged: boolean) =>
    db
      .select()
      .from(apiKeys)
      .where(
        and(
          // `+?`: with a bare `= ?` SQLite 3.54 compiled the statement again at every binding (sql-limits.test.ts).
          byUser ? eq(apiKeys.userId, sql`+${sql.placeholder("userId")}`) : undefined,
          paged ? lt(apiKeys.id, sql.placeholder("before")) : undefined,
        ),
      )
      .orderBy(desc(apiKeys.id))
      .limit(limitPlaceholder("limit"))
      .prepare();
  const listStatement = lazyPerShape(prepareList);

  return {
    insert: (key) =>
      guarded(() => {
        db.insert(apiKeys).values(key).run();
      }),
    findById: (id) => guarded(() => byId().get({ id }) ?? null),
    findByHash: (keyHash) => guarded(() => byHash().get({ keyHash }) ?? null),
    findByHashWithUser: (keyHash) =>
      guarded(() => {
        const row = withUserByHash().get(keyHash);
        return row === undefined ? null : toKeyWithUser(row);
      }),
    list: (userId, page) =>
      guarded(() => {
        const { before, limit } = page;
        return listStatement(userId !== undefined, before !== undefined).all({
          userId: userId ?? null,
          before: before ?? null,
          limit: Math.max(0, limit),
        });
      }),
    deactivate: (id) =>
      guarded(() => db.update(apiKeys).set({ isActive: false }).where(eq(apiKeys.id, id)).run().changes > 0),
    deactivateByUser: (userId, createdBefore) =>
      guarded(
        () =>
          db
            .update(apiKeys)
            .set({ isActive: false })
            .where(
              and(
                eq(apiKeys.userId, userId),
                eq(apiKeys.isActive, true),
                createdBefore === undefined ? undefined : lt(apiKeys.createdAt, createdBefore),
              ),
            )
            .run().changes,
      ),
    // BEGIN IMMEDIATE: the test of the old key and both writes hold the write lock, so no
    // revocation lands between them. A collision on the insert rolls back the expiry too.
    rotate: (id, replacement, expiresAt, now) =>
      guarded(() =>
        db.transaction(
          (tx) => {
            const until = expiresAt.getTime();
            const changed = tx
              .update(apiKeys)
              // min() of SQLite answers NULL when an argument is NULL, hence the coalesce.
              .set({ expiresAt: sql`min(coalesce(${apiKeys.expiresAt}, ${until}), ${until})` })
              .where(
                and(
                  eq(apiKeys.id, id),
                  eq(apiKeys.isActive, true),
                  or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
                ),
              )
              .run().changes;
            if (changed === 0) return false;
            tx.insert(apiKeys).values(replacement).run();
            return true;
          },
          { behavior: "immediate" },
        ),
      ),
    // The interval test sits in the WHERE clause, so concurrent requests write
    // at most once per interval without a read first.
    touchLastUsed: (id, now, minIntervalMs) =>
      guarded(() => {
        db.update(apiKeys)
          .set({ lastUsed: now })
          .where(
            and(
              eq(apiKeys.id, id),
              or(isNull(apiKeys.lastUsed), sql`${now.getTime()} - ${apiKeys.lastUsed} >= ${minIntervalMs}`),
            ),
          )
          .run();
      }),
  };
}
