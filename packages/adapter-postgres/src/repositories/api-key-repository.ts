import { type ApiKey, type ApiKeyRepository, isUuid, type PageQuery } from "@psm/core";
import { and, desc, eq, gt, isNull, lt, lte, or, sql } from "drizzle-orm";
import { asArrays } from "../array-rows.js";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy, lazyPerShape } from "../lazy.js";
import { apiKeys, users } from "../schema.js";
import { cursorOf, pageLimit } from "./query-helpers.js";

/**
 * The PostgreSQL ApiKeyRepository; a digest collision surfaces as `internal_error`. `reads`: where
 * the lookups and the keys page run (ListingRepositoryOptions.reads).
 */
export function createApiKeyRepository(db: Db, reads: Db = db): ApiKeyRepository {
  // Every keyed request looks its key up by digest, and the keys page lists: built once each.
  const byHash = lazy(() =>
    asArrays(
      reads
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.keyHash, sql.placeholder("keyHash")))
        .prepare("api_key_by_hash"),
    ),
  );
  // A keyed request reads its key and user together: one statement, one round trip on PostgreSQL.
  const withUserByHash = lazy(() =>
    asArrays(
      reads
        .select({ key: apiKeys, user: users })
        .from(apiKeys)
        .leftJoin(users, eq(users.id, apiKeys.userId))
        .where(eq(apiKeys.keyHash, sql.placeholder("keyHash")))
        .prepare("api_key_by_hash_with_user"),
    ),
  );
  const byId = lazy(() =>
    asArrays(
      reads
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.id, sql.placeholder("id")))
        .prepare("api_key_by_id"),
    ),
  );
  const listQuery = lazyPerShape((byUser: boolean, paged: boolean) =>
    asArrays(
      reads
        .select()
        .from(apiKeys)
        .where(
          and(
            byUser ? eq(apiKeys.userId, sql.placeholder("userId")) : undefined,
            paged ? lt(apiKeys.id, sql.placeholder("before")) : undefined,
          ),
        )
        .orderBy(desc(apiKeys.id))
        .limit(sql.placeholder("limit"))
        .prepare(`api_keys${byUser ? "_of_user" : ""}${paged ? "_before" : ""}`),
    ),
  );
  return {
    insert: (key: ApiKey) =>
      guarded(async () => {
        await db.insert(apiKeys).values(key);
      }),
    findById: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        const [row] = await byId()({ id });
        return row ?? null;
      }),
    findByHash: (keyHash) =>
      guarded(async () => {
        const [row] = await byHash()({ keyHash });
        return row ?? null;
      }),
    findByHashWithUser: (keyHash) =>
      guarded(async () => {
        const [row] = await withUserByHash()({ keyHash });
        return row ?? null;
      }),
    list: (userId: string | undefined, page: PageQuery) =>
      guarded(async () => {
        if (userId !== undefined && !isUuid(userId)) return [];
        const before = cursorOf(page);
        return listQuery(
          userId !== undefined,
          before !== undefined,
        )({
          userId,
          before,
          limit: pageLimit(page),
        });
      }),
    deactivate: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const rows = await db
          .update(apiKeys)
          .set({ isActive: false })
          .where(eq(apiKeys.id, id))
          .returning({ id: apiKeys.id });
        return rows.length > 0;
      }),
    deactivateByUser: (userId, createdBefore) =>
      guarded(async () => {
        if (!isUuid(userId)) return 0;
        // One statement: under READ COMMITTED it sees every key committed before it began.
        const rows = await db
          .update(apiKeys)
          .set({ isActive: false })
          .where(
            and(
              eq(apiKeys.userId, userId),
              eq(apiKeys.isActive, true),
              createdBefore === undefined ? undefined : lt(apiKeys.createdAt, createdBefore),
            ),
          )
          .returning({ id: apiKeys.id });
        return rows.length;
      }),
    // The conditional UPDATE decides and row-locks the old key, so a concurrent revocation waits
    // for the commit; a collision on the insert rolls back the expiry with it.
    rotate: (id, replacement, expiresAt, now) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const until = expiresAt.toISOString();
        return db.transaction(async (tx) => {
          const old = await tx
            .update(apiKeys)
            // LEAST skips NULLs: a key without an expiry gets `until`.
            .set({ expiresAt: sql`least(${apiKeys.expiresAt}, ${until}::timestamptz)` })
            .where(
              and(
                eq(apiKeys.id, id),
                eq(apiKeys.isActive, true),
                or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
              ),
            )
            .returning({ id: apiKeys.id });
          if (old.length === 0) return false;
          await tx.insert(apiKeys).values(replacement);
          return true;
        });
      }),
    touchLastUsed: (id, now, minIntervalMs) =>
      guarded(async () => {
        if (!isUuid(id)) return;
        // The interval test sits in the WHERE clause: a busy key costs a read, not a write.
        const threshold = new Date(now.getTime() - minIntervalMs);
        await db
          .update(apiKeys)
          .set({ lastUsed: now })
          .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsed), lte(apiKeys.lastUsed, threshold))));
      }),
  };
}
