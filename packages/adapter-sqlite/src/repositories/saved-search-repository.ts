import { type SavedSearch, type SavedSearchRepository, savedSearchMatchKey } from "@psm/core";
import { and, asc, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { savedSearchCursor, savedSearches, savedSearchMatches } from "../schema-saved-searches.js";

type SavedSearchRow = typeof savedSearches.$inferSelect;

function toSavedSearch({ matchKey: _, ...row }: SavedSearchRow): SavedSearch {
  return row;
}

/** SavedSearchRepository on drizzle. */
export function createSavedSearchRepository(db: Db): SavedSearchRepository {
  return {
    // One statement: the count and the insert see the same table, and SQLite runs one writer at
    // a time, so concurrent inserts never pass the limit. A missing user fails the foreign key.
    insertWithinLimit: (search, max) =>
      guarded(
        () =>
          db.run(sql`
            INSERT INTO saved_searches (id, user_id, name, q, search, category, min_price, max_price, match_key, created_at)
            SELECT ${search.id}, ${search.userId}, ${search.name}, ${search.q}, ${search.search}, ${search.category},
              ${search.minPrice}, ${search.maxPrice}, ${savedSearchMatchKey(search)}, ${search.createdAt.getTime()}
            WHERE (SELECT count(*) FROM saved_searches WHERE user_id = ${search.userId}) < ${max}`).changes >
          0,
      ),
    findById: (id) =>
      guarded(() => {
        const row = db.select().from(savedSearches).where(eq(savedSearches.id, id)).get();
        return row === undefined ? null : toSavedSearch(row);
      }),
    listByUser: (userId, page) =>
      guarded(() =>
        db
          .select()
          .from(savedSearches)
          .where(
            and(
              eq(savedSearches.userId, userId),
              page.before === undefined ? undefined : lt(savedSearches.id, page.before),
            ),
          )
          .orderBy(desc(savedSearches.id))
          .limit(Math.max(0, page.limit))
          .all()
          .map(toSavedSearch),
      ),
    // Its matches go by the foreign key's cascade.
    delete: (id) => guarded(() => db.delete(savedSearches).where(eq(savedSearches.id, id)).run().changes > 0),
    // One JSON array parameter, any number of keys; each is one seek of the match_key index.
    findCandidates: (keys) =>
      guarded(() => {
        if (keys.length === 0) return [];
        return db
          .select()
          .from(savedSearches)
          .where(sql`${savedSearches.matchKey} IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`)
          .all()
          .map(toSavedSearch);
      }),
    // One statement; a pair already recorded conflicts and is skipped, and a saved search deleted
    // since the candidates were read is left out rather than failing the rest on the foreign key.
    recordMatches: (matches) =>
      guarded(() => {
        if (matches.length === 0) return [];
        const rows = matches.map((m) => [m.savedSearchId, m.listingId, m.matchedAt.getTime()]);
        const recorded = db.all<{ saved_search_id: string; listing_id: string; matched_at: number }>(sql`
          INSERT INTO saved_search_matches (saved_search_id, listing_id, matched_at)
          SELECT m.value ->> 0, m.value ->> 1, m.value ->> 2 FROM json_each(${JSON.stringify(rows)}) AS m
          WHERE EXISTS (SELECT 1 FROM saved_searches WHERE saved_searches.id = m.value ->> 0)
          ORDER BY 1, 2
          ON CONFLICT DO NOTHING
          RETURNING saved_search_id, listing_id, matched_at`);
        return recorded.map((row) => ({
          savedSearchId: row.saved_search_id,
          listingId: row.listing_id,
          matchedAt: new Date(row.matched_at),
        }));
      }),
    unmailedMatches: (userId, savedSearchId, limit) =>
      guarded(() =>
        db
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
          .limit(Math.max(0, limit))
          .all(),
      ),
    markMailed: (matches, at) =>
      guarded(() => {
        for (const match of matches) {
          db.update(savedSearchMatches)
            .set({ mailedAt: at })
            .where(
              and(
                eq(savedSearchMatches.savedSearchId, match.savedSearchId),
                eq(savedSearchMatches.listingId, match.listingId),
              ),
            )
            .run();
        }
      }),
    // SQLite has one writer and a unit of work holds the write lock from its start: no lock of its own.
    takeMatchCursor: () =>
      guarded(() => {
        const row = db
          .select({ lastSeq: savedSearchCursor.lastSeq })
          .from(savedSearchCursor)
          .where(eq(savedSearchCursor.id, 1))
          .get();
        // Without its row the matcher would never move: fail rather than report it taken.
        if (row === undefined) throw new Error("saved_search_cursor has no row");
        return row.lastSeq;
      }),
    advanceMatchCursor: (seq) =>
      guarded(() => {
        db.update(savedSearchCursor).set({ lastSeq: seq }).where(eq(savedSearchCursor.id, 1)).run();
      }),
  };
}
