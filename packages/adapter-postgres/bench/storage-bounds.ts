/** The bounded-search section (bench/support/search-bounds.ts) on PostgreSQL, with database time. */
import { foldSearchText, type ListingSearch, type Storage } from "@psm/core";
import { benchSearchBounds } from "../../../bench/support/search-bounds.ts";
import type { Connection } from "../src/connection.js";
import { sqlState } from "../src/db-errors.js";
import { searchQuery, sliceQuery } from "../src/repositories/listing-search.js";
import { SEARCH_TIMEOUT_MS } from "../src/repositories/search-budget.js";
import { sampleTitles, TERMS } from "./seed.js";

/** Execution time of `built` inside PostgreSQL (EXPLAIN ANALYZE, no per-node timing), under `timeoutMs`. */
async function executionTime(
  connection: Connection,
  built: { sql: string; params: unknown[] },
  timeoutMs?: number,
) {
  return connection.sql.begin(async (tx) => {
    if (timeoutMs !== undefined) await tx.unsafe(`set local statement_timeout = ${timeoutMs}`);
    const [row] = await tx.unsafe(
      `explain (analyze, timing off, format json) ${built.sql}`,
      built.params as never[],
    );
    const [plan] = Object.values(row ?? {})[0] as [{ "Execution Time": number }];
    return plan["Execution Time"];
  });
}

/**
 * The database time of a search as the repository runs it: the search under
 * its statement_timeout, or when PostgreSQL cancels it there, the timeout
 * plus the slice that answers instead. Median of three.
 */
async function databaseTime(connection: Connection, query: ListingSearch, now: Date): Promise<number> {
  const folded = foldSearchText(query.text ?? "");
  const once = async () => {
    try {
      return await executionTime(
        connection,
        searchQuery(connection.db, query, now)!.toSQL(),
        SEARCH_TIMEOUT_MS,
      );
    } catch (error) {
      if (sqlState(error) !== "57014") throw error;
    }
    return (
      SEARCH_TIMEOUT_MS +
      (await executionTime(connection, sliceQuery(connection.db, query, now, folded).toSQL()))
    );
  };
  const times = [await once(), await once(), await once()].sort((a, b) => a - b);
  return times[1] ?? Number.NaN;
}

export async function benchBounds(storage: Storage, connection: Connection, size: number): Promise<void> {
  const now = new Date();
  const [middle] = await connection.sql<{ id: string }[]>`select id from listings where status = 'active'
    order by id desc offset ${Math.floor(size * 0.5)} limit 1`;
  await benchSearchBounds({
    listings: storage.repositories.listings,
    now,
    titles: await sampleTitles(connection.sql, 1, 5_000),
    middleId: middle?.id ?? "",
    words: {
      common: "consulting",
      pair: ["consulting", "retail"],
      rare: TERMS.rare,
      many: ["consulting", "design", "development", "audit", "strategy", "retail", "healthcare", "energy"],
    },
    databaseTime: (term) => databaseTime(connection, { status: "active", text: term, limit: 20 }, now),
  });
}
