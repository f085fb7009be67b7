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
 * Runs a search under a statement_timeout: PostgreSQL itself cancels the
 * statement and frees its work at the bound, not a timer racing it here. The
 * setting is SET LOCAL in a transaction of the search's own, so it ends with
 * it; inside a unit of work (already a transaction) the search runs as it is,
 * since a savepoint would leave the setting to the unit's later statements.
 * A cancelled search answers `atBudget`, which must be bounded by its own
 * construction: it runs without the timeout, on `db` after the cancelled
 * transaction's rollback, in one round trip.
 */
export async function withinSearchBudget<T>(
  db: Db,
  inUnit: boolean,
  timeoutMs: number,
  search: (on: Db) => Promise<T>,
  atBudget: () => Promise<T>,
): Promise<T> {
  if (inUnit) return search(db);
  // A whole number of milliseconds, at least 1 (0 would switch the bound off), written as a literal.
  const ms = Number.isFinite(timeoutMs) ? Math.max(1, Math.floor(timeoutMs)) : SEARCH_TIMEOUT_MS;
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${ms}`));
      return search(tx);
    });
  } catch (error) {
    if (sqlState(error) !== "57014") throw error;
  }
  return atBudget();
}
