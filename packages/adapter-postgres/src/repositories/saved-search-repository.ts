import {
  isUuid,
  MarketplaceError,
  type SavedSearch,
  type SavedSearchMatch,
  type SavedSearchRepository,
  savedSearchMatchKey,
} from "@psm/core";
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { savedSearchCursor, savedSearches, savedSearchMatches } from "../schema-saved-searches.js";
import { countInt, idBefore, lockUser, pageLimit, texts } from "./query-helpers.js";

type SavedSearchRow = typeof savedSearches.$inferSelect;

function toSavedSearch({ matchKey: _, ...row }: SavedSearchRow): SavedSearch {
  return row;
}

/** The PostgreSQL SavedSearchRepository, shared safely by several processes. */
export function createSavedSearchRepository(db: Db): SavedSearchRepository {
  return {
    // The user's row is locked first (lockUser), so concurrent inserts for one user queue there
    // and each counts what the previous one committed.
    insertWithinLimit: (search, max) =>
      guarded(async () => {
        if (!isUuid(search.userId)) throw new MarketplaceError("user_not_found");
        return db.transaction(async (tx) => {
          await lockUser(tx, search.userId);
          const [held] = await tx
            .select({ n: countInt })
            .from(savedSearches)
            .where(eq(savedSearches.userId, search.userId));
          if ((held?.n ?? 0) >= max) return false;
          // A missing user fails the foreign key here: user_not_found.
          await tx.insert(savedSearches).values({ ...search, matchKey: savedSearchMatchKey(search) });
          return true;
        });
      }),
    findById: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, id));
        return row === undefined ? null : toSavedSearch(row);
      }),
    listByUser: (userId, page) =>
      guarded(async () => {
        const before = idBefore(savedSearches.id, page);
        if (!isUuid(userId)) return [];
        const rows = await db
          .select()
          .from(savedSearches)
          .where(and(eq(savedSearches.userId, userId), before))
          .orderBy(desc(savedSearches.id))
          .limit(pageLimit(page));
        return rows.map(toSavedSearch);
      }),
    // Its matches go by the foreign key's cascade, in the same statement.
    delete: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const rows = await db.delete(savedSearches).where(eq(savedSearches.id, id));
        return rows.count > 0;
      }),
    // One array parameter, any number of keys; each is one seek of the match_key index.
    findCandidates: (keys) =>
      guarded(async () => {
        if (keys.length === 0) return [];
        const rows = await db
          .select()
          .from(savedSearches)
          .where(sql`${savedSearches.matchKey} = any(${sql.param([...keys])}::text[])`);
        return rows.map(toSavedSearch);
      }),
    // One statement. Only pairs whose saved search exists go in, and those are held (KEY SHARE)
    // until the transaction ends, as webhook deliveries' insertMany: a saved search deleted
    // meanwhile never fails the others' rows. A pair recorded before conflicts and is skipped.
    recordMatches: (matches) =>
      guarded(async () => {
        const unique = new Map<string, SavedSearchMatch>();
        for (const match of matches) {
          if (isUuid(match.savedSearchId) && isUuid(match.listingId)) {
            unique.set(`${match.savedSearchId}/${match.listingId}`, match);
          }
        }
        if (unique.size === 0) return [];
        const rows = [...unique.values()];
        const searchIds = [...new Set(rows.map((row) => row.savedSearchId))];
        const recorded = await db.execute<{ saved_search_id: string; listing_id: string }>(sql`
          with live as (
            select id from saved_searches where id = any(${sql.param(searchIds)}::uuid[]) order by id for key share
          )
          insert into saved_search_matches (saved_search_id, listing_id, matched_at)
          select m.saved_search_id::uuid, m.listing_id::uuid, m.matched_at::timestamptz
          from unnest(
            ${texts(rows.map((row) => row.savedSearchId))}::text[],
            ${texts(rows.map((row) => row.listingId))}::text[],
            ${texts(rows.map((row) => row.matchedAt.toISOString()))}::text[]
          ) as m(saved_search_id, listing_id, matched_at)
          where m.saved_search_id::uuid in (select id from live)
          on conflict do nothing
          returning saved_search_id, listing_id`);
        return recorded.flatMap((row) => unique.get(`${row.saved_search_id}/${row.listing_id}`) ?? []);
      }),
    unmailedMatches: (userId, savedSearchId, limit) =>
      guarded(async () => {
        if (!isUuid(userId) || (savedSearchId !== null && !isUuid(savedSearchId))) return [];
        return db
          .select({
            savedSearchId: savedSearchMatches.savedSearchId,
            listingId: savedSearchMatches.listingId,
            matchedAt: savedSearchMatches.matchedAt,
          })
          .from(savedSearchMatches)
          .innerJoin(savedSearches, eq(savedSearches.id, savedSearchMatches.savedSearchId))
          .where(
            and(
              eq(savedSearches.userId, userId),
              isNull(savedSearchMatches.mailedAt),
              savedSearchId === null ? undefined : eq(savedSearchMatches.savedSearchId, savedSearchId),
            ),
          )
          .orderBy(
            asc(savedSearchMatches.matchedAt),
            asc(savedSearchMatches.savedSearchId),
            asc(savedSearchMatches.listingId),
          )
          .limit(Math.max(0, limit));
      }),
    // One statement however many matches (one array parameter per column).
    markMailed: (matches, at) =>
      guarded(async () => {
        const rows = matches.filter((m) => isUuid(m.savedSearchId) && isUuid(m.listingId));
        if (rows.length === 0) return;
        await db.execute(sql`
          update saved_search_matches set mailed_at = ${at === null ? null : at.toISOString()}::timestamptz
          from unnest(
            ${texts(rows.map((row) => row.savedSearchId))}::uuid[],
            ${texts(rows.map((row) => row.listingId))}::uuid[]
          ) as m(saved_search_id, listing_id)
          where saved_search_matches.saved_search_id = m.saved_search_id
            and saved_search_matches.listing_id = m.listing_id`);
      }),
    // SKIP LOCKED, as the webhook fan-out's cursor: a round holds the row until it commits; another
    // process gets no row and passes instead of waiting and then matching the same events.
    takeMatchCursor: () =>
      guarded(async () => {
        const [row] = await db
          .select({ lastSeq: savedSearchCursor.lastSeq })
          .from(savedSearchCursor)
          .where(eq(savedSearchCursor.id, 1))
          .for("update", { skipLocked: true });
        if (row !== undefined) return row.lastSeq;
        const [exists] = await db.select({ id: savedSearchCursor.id }).from(savedSearchCursor);
        if (exists === undefined) throw new Error("saved_search_cursor has no row");
        return null;
      }),
    advanceMatchCursor: (seq) =>
      guarded(async () => {
        await db.update(savedSearchCursor).set({ lastSeq: seq }).where(eq(savedSearchCursor.id, 1));
      }),
  };
}
