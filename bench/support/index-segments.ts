/** How merged the SQLite server's search indexes are, read from its file alongside it. */
import { setTimeout as sleep } from "node:timers/promises";
import { ENDPOINT } from "./endpoints.js";
import type { Target } from "./load.js";
import { openSqlite } from "./modules.js";

/** How long a search row waits at most for the server's merge. */
const MERGE_WAIT_MS = 180_000;

/** What a wait for the merge saw. */
interface MergeWait {
  ms: number;
  /** Segments beyond one per index when the wait ended: 0 once every index is merged. */
  extra: number;
}

/**
 * Waits, at most `maxMs`, until every FTS5 index in `file` holds one segment. The server merges
 * them while listing writes are quiet (apps/server search-index-upkeep.ts), 30 s after its start
 * at the earliest; a row that searches during the merge measures the merge's CPU as its own and
 * searches over several segments (1.5-2 times slower: adapter-sqlite DESIGN.md "Search index
 * merging").
 */
async function untilSearchIndexesMerged(file: string, maxMs: number): Promise<MergeWait> {
  const db = openSqlite(file, { readonly: true });
  const began = performance.now();
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5(%'")
      .pluck()
      .all() as string[];
    // FTS5 keys its `_idx` rows by segment: one distinct segid per segment.
    const segments = tables.map((table) =>
      db.prepare(`SELECT count(DISTINCT segid) FROM "${table}_idx"`).pluck(),
    );
    const extra = () => segments.reduce((sum, count) => sum + Math.max(0, (count.get() as number) - 1), 0);
    for (;;) {
      const left = extra();
      const ms = performance.now() - began;
      if (left === 0 || ms >= maxMs) return { ms, extra: left };
      await sleep(1_000);
    }
  } finally {
    db.close();
  }
}

/** The distinct searches' rows: each measures what a search costs, not what the merge does. */
const SEARCH_ROWS: ReadonlySet<string> = new Set([
  ENDPOINT.distinctQ,
  ENDPOINT.distinctQCategory,
  ENDPOINT.distinctSearch,
]);

/**
 * Before each distinct searches' row on SQLite: the server's search indexes merged, as it keeps
 * them once listing writes are quiet (after the create rows' thousands of listings, ~1 min).
 */
export function searchesMerged(file: string, log: (line: string) => void) {
  return async (target: Target): Promise<void> => {
    if (!SEARCH_ROWS.has(target.name)) return;
    const wait = await untilSearchIndexesMerged(file, MERGE_WAIT_MS);
    log(
      `sqlite   waited ${(wait.ms / 1000).toFixed(0)} s for the search indexes' merge` +
        (wait.extra > 0 ? ` and went on unmerged (${wait.extra} segments beyond one per index)` : ""),
    );
  };
}
