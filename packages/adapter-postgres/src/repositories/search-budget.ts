import { sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { sqlState } from "../db-errors.js";

/**
 * Database time a search with a term may take before PostgreSQL cancels it
 * and the search answers the slice of its walk instead (sliceSearch). Why 35:
 * DESIGN.md "Search budget".
 */
export const SEARCH_TIMEOUT_MS = 35;

/**
 * The pool searches run on: its connections were opened with
 * `statement_timeout` as a connection parameter (openSearchConnection), so a
 * search is its statements alone, with no BEGIN, SET or COMMIT around them,
 * and searches that reach the bound hold these connections, never the
 * writes'. DESIGN.md "Search pool".
 */
export interface SearchPool {
  db: Db;
  /** Searches running or waiting for a connection of this pool now (the metrics' gauges). */
  inFlight: number;
}

/**
 * Runs a search on the search pool, where PostgreSQL itself cancels each
 * statement at the bound and frees its work, not a timer racing it here. A
 * cancelled search answers `atBudget`, which must be bounded by its own
 * construction (a LIMIT): it runs on the same pool without the timeout, in a
 * transaction of its own that lifts it (SET LOCAL, so the connection keeps its
 * bound afterwards). Without a pool (inside a unit of work, already a
 * transaction on the unit's connection) the search runs on `db` as it is.
 */
export async function withinSearchBudget<T>(
  db: Db,
  pool: SearchPool | undefined,
  search: (on: Db) => Promise<T>,
  atBudget: (on: Db) => Promise<T>,
): Promise<T> {
  if (pool === undefined) return search(db);
  pool.inFlight++;
  try {
    try {
      return await search(pool.db);
    } catch (error) {
      if (sqlState(error) !== "57014") throw error;
    }
    const lifted = () =>
      pool.db.transaction(async (tx) => {
        await tx.execute(sql.raw("set local statement_timeout = 0"));
        return atBudget(tx);
      });
    try {
      return await lifted();
    } catch (error) {
      if (sqlState(error) !== "57014") throw error;
    }
    // The timeout of the statement before, firing as it ended, can land on this BEGIN or SET
    // (seen at a 1 ms budget); that cancel is spent, so the slice runs once more.
    return await lifted();
  } finally {
    pool.inFlight--;
  }
}
