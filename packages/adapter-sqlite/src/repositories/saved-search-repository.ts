import {
  type MailedCursors,
  type SavedSearch,
  type SavedSearchMatch,
  type SavedSearchRepository,
  savedSearchMatchKey,
  UNMAILED_SCAN_EVENTS,
} from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { savedSearchCursor, savedSearches } from "../schema-saved-searches.js";

type SavedSearchRow = typeof savedSearches.$inferSelect;

function toSavedSearch({ matchKey: _, mailedSeq: __, ...row }: SavedSearchRow): SavedSearch {
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
    // A pair already recorded conflicts and is skipped, and a saved search or a listing deleted
    // since the candidates were read is left out (a listing's matches went with it: 0019). In key order (listing, saved search), so the WITHOUT
    // ROWID table is filled as a b-tree likes.
    record: sqlite
      .prepare<[string], [string, string, number]>(
        `INSERT INTO saved_search_matches (saved_search_id, listing_id, matched_at)
          SELECT m.value ->> 0, m.value ->> 1, m.value ->> 2 FROM json_each(?) AS m
          WHERE EXISTS (SELECT 1 FROM saved_searches WHERE saved_searches.id = m.value ->> 0)
            AND EXISTS (SELECT 1 FROM listings WHERE listings.id = m.value ->> 1)
          ORDER BY 2, 1
          ON CONFLICT DO NOTHING
          RETURNING saved_search_id, listing_id, matched_at`,
      )
      .raw(),
  };
}

/** A saved_search.matched event as unmailedMatches reads it: seq, saved search, listing, when. */
type MatchedRow = [number, string, string, number];

/** Where the bounded walk of a user's events ends, on the (user_id, seq) index. */
export const UNMAILED_WALK_END_SQL = `SELECT max(seq) AS last FROM
  (SELECT seq FROM events WHERE user_id = +@userId AND seq > +@from ORDER BY seq LIMIT +@scan)`;
/** The saved_search.matched events of that walk, in order, on the same index. */
export const UNMAILED_MATCHED_SQL = `SELECT seq, data ->> '$.saved_search_id', data ->> '$.listing_id', occurred_at
  FROM events WHERE user_id = +@userId AND seq > +@from AND seq <= +@last AND type = 'saved_search.matched'
  ORDER BY seq`;

/**
 * The statements of unmailedMatches: the user's mailed cursors, where the bounded walk of their
 * events ends, and the saved_search.matched events in it. Both walks read the (user_id, seq) index.
 */
function prepareMailStatements(sqlite: Database) {
  return {
    cursors: sqlite
      .prepare<[string], [string, number]>("SELECT id, mailed_seq FROM saved_searches WHERE user_id = +?")
      .raw(),
    walkEnd: sqlite.prepare<{ userId: string; from: number; scan: number }, { last: number | null }>(
      UNMAILED_WALK_END_SQL,
    ),
    matched: sqlite
      .prepare<{ userId: string; from: number; last: number }, MatchedRow>(UNMAILED_MATCHED_SQL)
      .raw(),
  };
}

/** SavedSearchRepository on drizzle, and matching's two statements on better-sqlite3. */
export function createSavedSearchRepository(sqlite: Database, db: Db): SavedSearchRepository {
  const matching = lazy(() => prepareMatchStatements(sqlite));
  const mail = lazy(() => prepareMailStatements(sqlite));
  /** The user's saved search (or all of theirs) and their mailed cursors. */
  const cursorsOf = (userId: string, savedSearchId: string | null) =>
    new Map(
      mail()
        .cursors.all(userId)
        .filter(([id]) => savedSearchId === null || id === savedSearchId),
    );
  return {
    // One statement: the count and the insert see the same table, and SQLite runs one writer at
    // a time, so concurrent inserts never pass the limit. A missing user fails the foreign key.
    // The mailed cursor starts at the log's end: no match before the search is its.
    insertWithinLimit: (search, max) =>
      guarded(
        () =>
          db.run(sql`
            INSERT INTO saved_searches (id, user_id, name, q, search, category, min_price, max_price, match_key, mailed_seq, created_at)
            SELECT ${search.id}, ${search.userId}, ${search.name}, ${search.q}, ${search.search}, ${search.category},
              ${search.minPrice}, ${search.maxPrice}, ${savedSearchMatchKey(search)},
              (SELECT coalesce(max(seq), 0) FROM events), ${search.createdAt.getTime()}
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
    // Its matches stay (keyed by listing, they are not found by saved search); none is told again.
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
      guarded(() => {
        const cursors = cursorsOf(userId, savedSearchId);
        if (cursors.size === 0 || limit <= 0) return { matches: [], through: null };
        const from = Math.min(...cursors.values());
        const { last } = mail().walkEnd.get({ userId, from, scan: UNMAILED_SCAN_EVENTS }) ?? { last: null };
        if (last === null) return { matches: [], through: null };
        const matches: SavedSearchMatch[] = [];
        for (const [seq, id, listingId, at] of mail().matched.all({ userId, from, last })) {
          const cursor = cursors.get(id);
          if (cursor === undefined || seq <= cursor) continue;
          matches.push({ savedSearchId: id, listingId, matchedAt: new Date(at) });
          if (matches.length >= limit) return { matches, through: seq };
        }
        return { matches, through: last };
      }),
    markMailed: (userId, savedSearchId, through) =>
      guarded(() =>
        sqlite.transaction(() => {
          const before: Record<string, number> = Object.fromEntries(cursorsOf(userId, savedSearchId));
          db.run(sql`UPDATE saved_searches SET mailed_seq = max(mailed_seq, ${through})
            WHERE user_id = ${userId} AND (${savedSearchId} IS NULL OR id = ${savedSearchId})`);
          return before;
        })(),
      ),
    restoreMailed: (cursors: MailedCursors) =>
      guarded(() => {
        sqlite.transaction(() => {
          for (const [id, seq] of Object.entries(cursors)) {
            db.update(savedSearches).set({ mailedSeq: seq }).where(eq(savedSearches.id, id)).run();
          }
        })();
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
