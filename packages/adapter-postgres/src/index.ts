import type { Storage } from "@psm/core";
import { connect, connectSearch } from "./connection.js";
import { guarded } from "./db-errors.js";
import { applyMigrations } from "./migrate.js";
import { createRepositories } from "./repositories/index.js";
import { SEARCH_TIMEOUT_MS, type SearchPool } from "./repositories/search-budget.js";

/** How to reach PostgreSQL. */
export interface PostgresStorageOptions {
  /** A `postgres://` or `postgresql://` URL. */
  url: string;
  /** Connections in this process's pool (default 10). */
  poolMax?: number | undefined;
  /**
   * Connections of the separate pool searches run on (searches with a term,
   * finds, facet counts), each carrying the search budget as its
   * `statement_timeout`; default half of `poolMax`, rounded up. Searches
   * beyond it wait for one of these, never for the writes' pool.
   */
  searchPoolMax?: number | undefined;
  /**
   * Of `poolMax`, the connections kept for the short reads every signed-in request makes (its
   * key or session and user, the keys page, the inbox, pages of listings): pipelined on a few
   * connections they cost less than spread over many, and never queue behind writes; default a
   * third of `poolMax`, at most 3, none below 4. Why: DESIGN.md "Reads pool".
   */
  readPoolMax?: number | undefined;
  /**
   * Database time, in milliseconds, a search with a term may take before
   * PostgreSQL cancels it and it answers the matches among the newest listings
   * it can examine, with a cursor to go on (default 35). Why 35, and what it
   * costs: DESIGN.md "Search budget".
   */
  searchTimeoutMs?: number | undefined;
}

/** A third of the pool for short reads, at most 3; a pool of fewer than 4 keeps one pool. */
function defaultReadPool(poolMax: number): number {
  return poolMax < 4 ? 0 : Math.min(3, Math.floor(poolMax / 3));
}

/** Seconds close() lets in-flight queries finish before connections are cut. */
const DRAIN_TIMEOUT_SECONDS = 5;

/** How busy the search pool is, for the metrics (its counts are the adapter's own). */
export interface SearchPoolUse {
  /** Connections it may open. */
  readonly size: number;
  /** Searches running or waiting for one of its connections now. */
  readonly inFlight: number;
}

/** Storage on PostgreSQL, with its search pool's use. */
export interface PostgresStorage extends Storage {
  readonly searchPool: SearchPoolUse;
}

/**
 * Storage on PostgreSQL through three postgres.js pools: one for searches (see
 * searchPoolMax), one for the short reads of signed-in requests (readPoolMax),
 * one for everything else. Connections open lazily, so this
 * never throws for an unreachable server; migrate() and ping() tell.
 */
export function openPostgresStorage(options: PostgresStorageOptions): PostgresStorage {
  const poolMax = options.poolMax ?? 10;
  const searchPoolMax = options.searchPoolMax ?? Math.ceil(poolMax / 2);
  const readPoolMax = Math.max(0, Math.min(poolMax - 1, options.readPoolMax ?? defaultReadPool(poolMax)));
  const { sql, db } = connect(options.url, poolMax - readPoolMax);
  const reading = readPoolMax > 0 ? connect(options.url, readPoolMax, "psm-reads") : undefined;
  // A whole number of milliseconds, at least 1 (0 would switch the bound off).
  const timeoutMs = options.searchTimeoutMs;
  const bound =
    timeoutMs !== undefined && Number.isFinite(timeoutMs)
      ? Math.max(1, Math.floor(timeoutMs))
      : SEARCH_TIMEOUT_MS;
  const searching = connectSearch(options.url, searchPoolMax, bound);
  const search: SearchPool = { db: searching.db, inFlight: 0 };
  return {
    repositories: createRepositories(db, { search, reads: reading?.db }),
    migrate: () => guarded(() => applyMigrations(options.url)),
    async ping() {
      try {
        await sql`select 1`;
        return true;
      } catch {
        return false;
      }
    },
    close: () =>
      guarded(async () => {
        await Promise.all([
          sql.end({ timeout: DRAIN_TIMEOUT_SECONDS }),
          searching.sql.end({ timeout: DRAIN_TIMEOUT_SECONDS }),
          reading?.sql.end({ timeout: DRAIN_TIMEOUT_SECONDS }),
        ]);
      }),
    searchPool: {
      size: searchPoolMax,
      get inFlight() {
        return search.inFlight;
      },
    },
  };
}

/** Where the committed SQL migrations live (for tools that apply them themselves). */
export { MIGRATIONS_FOLDER } from "./migrations-folder.js";
export {
  openPostgresRateLimitStore,
  type PostgresRateLimitStore,
  type PostgresRateLimitStoreOptions,
  type RateLimitCounter,
  type RateLimitHits,
} from "./rate-limit-store.js";
