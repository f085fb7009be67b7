import type { Database } from "better-sqlite3";
import { releaseMemory } from "./connection.js";
import { lazy } from "./lazy.js";

// Each commit that writes a title or a description adds a segment to every
// full-text index it touches, and FTS5 merges them only by levels: the bench's
// 20,000 listings held 8 to 12 segments per index. Every term a search opens
// is looked up in each segment, and FTS5's lookup statement (`segid=? AND
// term<=?`) is compiled again whenever the segment id it is bound to moves
// between 1 and another (SQLite 3.54's planner marks `segid=?` for that), so
// with several segments each term costs two compilations. Merged into one
// segment, the bench's searches take half the time. Why and what it costs:
// DESIGN.md "Search index merging".

/**
 * The full-text indexes of listings: trigrams of titles (`search`), words of
 * titles and descriptions, words of titles, and those two by category.
 */
export const SEARCH_INDEXES = [
  "listings_fts",
  "listings_text",
  "listings_title",
  "listings_words_cat",
  "listings_title_cat",
] as const;

/** The statement counting an index's segments: each is a distinct segid of its `_idx` table. */
export function segmentCounter(sqlite: Database, table: (typeof SEARCH_INDEXES)[number]): () => number {
  const count = sqlite
    .prepare<[], number>(`SELECT count(*) FROM (SELECT DISTINCT segid FROM ${table}_idx)`)
    .pluck();
  return () => count.get() ?? 0;
}

/** Merges the search indexes a bounded step at a time; see SqliteStorage.mergeSearchIndexes. */
export function createSearchIndexMerger(sqlite: Database): (pages: number) => boolean {
  const indexes = lazy(() =>
    SEARCH_INDEXES.map((table) => ({
      segments: segmentCounter(sqlite, table),
      // A negative page count merges every segment into one, writing at most that many pages a call;
      // the merge's progress is kept in the index, so the next call goes on where this one stopped.
      merge: sqlite.prepare<[number]>(`INSERT INTO ${table}(${table}, rank) VALUES('merge', ?)`),
    })),
  );
  return (pages) => {
    if (!sqlite.open) return false;
    // A unit of work holds the connection's transaction across awaits: joining it would tie the
    // merge to that work's fate. Left for the next call.
    if (sqlite.inTransaction) return true;
    let more = false;
    let merged = false;
    for (const index of indexes()) {
      if (index.segments() <= 1) continue;
      index.merge.run(-Math.max(1, Math.floor(pages)));
      merged = true;
      if (index.segments() > 1) more = true;
    }
    // A merge reads every page of an index through the mapped file and fills the page cache
    // (16 MB) with what it writes: both handed back once it ends (releaseMemory).
    if (merged && !more) releaseMemory(sqlite);
    return more;
  };
}
