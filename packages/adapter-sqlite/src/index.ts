import type { Storage } from "@psm/core";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { openConnection, releaseMemory } from "./connection.js";
import { guarded } from "./db-errors.js";
import { lazy } from "./lazy.js";
import { applyMigrations } from "./migrate.js";
import { createRepositories } from "./repositories/index.js";
import { createSearchIndexMerger } from "./search-index-merge.js";

/** Options of the SQLite storage. */
export interface SqliteStorageOptions {
  /** Path of the database file; created (mode 0600) if absent. */
  file: string;
  /**
   * Rows a search with a term examines at most before it answers a short page
   * with a next cursor (default 5,000): better-sqlite3 runs a statement on the
   * event loop to its end, so this bounds how long one search holds every other
   * request. Why 5,000, and what it costs: DESIGN.md "Search budget".
   */
  searchBudget?: number | undefined;
}

/** The SQLite storage: core's Storage, and memory it can hand back while idle. */
export interface SqliteStorage extends Storage {
  /**
   * Returns the connection's page cache and its mapped database pages to the
   * system; reads afterwards map them again as they need them. For a server
   * that has gone quiet: cheap, but it unmaps the whole file.
   */
  releaseMemory(): void;
  /**
   * One bounded step of merging each full-text index of listings into a single segment:
   * at most `pages` pages written per index, in its own short write transaction. True
   * while an index still has several segments (call again later), false once all are
   * merged, when a call writes nothing. Searches read several segments 1.5-2 times slower
   * than one (DESIGN.md "Search index merging"); a server calls this while listing writes
   * are quiet.
   */
  mergeSearchIndexes(pages: number): boolean;
}

/**
 * Opens (creating if needed) the SQLite database at `file` and returns the
 * repositories on it. Call `migrate()` before first use.
 */
export function openSqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  const sqlite = openConnection(options.file);
  const db = drizzle({ client: sqlite });
  const probe = lazy(() => sqlite.prepare<[], number>("SELECT 1").pluck());
  return {
    repositories: createRepositories(sqlite, db, { searchBudget: options.searchBudget }),
    migrate: () => guarded(() => applyMigrations(db, sqlite)),
    ping: () => guarded(() => probe().get() === 1).catch(() => false),
    releaseMemory: () => releaseMemory(sqlite),
    mergeSearchIndexes: createSearchIndexMerger(sqlite),
    close: () =>
      guarded(() => {
        if (!sqlite.open) return;
        // Refreshes planner statistics where they changed; cheap, and the docs
        // recommend it before closing a connection.
        sqlite.pragma("optimize");
        sqlite.close();
      }),
  };
}

/** Where the committed SQL migrations live (for tools that apply them themselves). */
export { MIGRATIONS_FOLDER } from "./migrations-folder.js";
