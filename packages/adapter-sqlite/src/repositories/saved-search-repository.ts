import { type SavedSearch, type SavedSearchRepository, savedSearchMatchKey } from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, asc, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { savedSearchCursor, savedSearches, savedSearchMatches } from "../schema-saved-searches.js";

type SavedSearchRow = typeof savedSearches.$inferSelect;

function toSavedSearch({ matchKey: _, ...row }: SavedSearchRow): SavedSearch {
  return row;
}

/** A saved_searches row as findCandidates selects it, in column order. */
type CandidateRow = [
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  number | null,
  number | null,
  number,
];

/**
 * The two statements of a matching round, prepared once on better-sqlite3 itself: a round reads
 * ~150 candidates and records ~50 matches per listing, and drizzle built each query and mapped
 * each row on every call (about 0.1 ms of CPU per new listing in bench:saved-searches).
 */
function prepareMatchStatements(sqlite: Database) {
  return {
    // One JSON array parameter, any number of keys; each is one seek of the match_key index.
    candidates: sqlite
      .prepare<[string], CandidateRow>(
        `SELECT id, user_id, name, q, search, category, min_price, max_price, created_at FROM saved_searches
          WHERE match_key IN (SELECT value FROM json_each(?))`,
      )
      .raw(),
    // A pair already recorded conflicts and is skipped, and a saved search deleted since the
    // candidates were read is left out rather than failing the rest on the foreign key. In key
    // order, so the WITHOUT ROWID table is filled as a b-tree likes.
    record: sqlite
      .prepare<[string], [string, string, number]>(
        `INSERT INTO saved_search_matches (saved_search_id, listing_id, matched_at)
          SELECT m.value ->> 0, m.value ->> 1, m.value ->> 2 FROM json_each(?) AS m
          WHERE EXISTS (SELECT 1 FROM saved_searches WHERE saved_searches.id = m.value ->> 0)
          ORDER BY 1, 2
          ON CONFLICT DO NOTHING
          RETURNING saved_search_id, listing_id, matched_at`,
      )
      .raw(),
  };
}

/** SavedSearchRepository on drizzle, and matching's two statements on better-sqlite3. */
export function createSavedSearchRepository(sqlite: Database, db: Db): SavedSearchRepository {
  const matching = lazy(() => prepareMatchStatements(sqlite));
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
    findCandidates: (keys) =>
      guarded(() => {
        if (keys.length === 0) return [];
        return matching()
          .candidates.all(JSON.stringify(keys))
          .map(([id, userId, name, q, search, category, minPrice, maxPrice, createdAt]) => ({
            id,
            userId,
            name,
            q,
            search,
            category: category as SavedSearch["category"],
            minPrice,
            maxPrice,
            createdAt: new Date(createdAt),
          }));
      }),
    recordMatches: (matches) =>
      guarded(() => {
        if (matches.length === 0) return [];
        const rows = matches.map((m) => [m.savedSearchId, m.listingId, m.matchedAt.getTime()]);
        return matching()
          .record.all(JSON.stringify(rows))
          .map(([savedSearchId, listingId, matchedAt]) => ({
            savedSearchId,
            listingId,
            matchedAt: new Date(matchedAt),
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
