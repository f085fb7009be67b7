import type { PgDatabase } from "drizzle-orm/pg-core";
import { drizzle, type PostgresJsQueryResultHKT } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema.js";

/**
 * The drizzle handle the repositories share: the pool's, or a transaction's
 * (a unit of work builds the same repositories over one).
 */
export type Db = PgDatabase<PostgresJsQueryResultHKT, typeof schema>;

/** The handle inside `db.transaction(...)`. */
export type Transaction = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A postgres.js pool and the drizzle handle over it. */
export interface Connection {
  sql: postgres.Sql;
  db: Db;
}

/**
 * Opens a postgres.js pool of at most `max` connections with the settings
 * every connection of the adapter needs. `plan_cache_mode` stays `auto`, so
 * named pages go generic; a search with a term runs on the search pool, which
 * plans each call with its values (listing-repository.ts). Why: DESIGN.md
 * "Named pages, unnamed searches". With `searchTimeoutMs`, the search pool's
 * (DESIGN.md "Search pool"). `name` is its
 * `application_name` in pg_stat_activity.
 */
export function openConnection(
  url: string,
  max: number,
  searchTimeoutMs?: number,
  name = searchTimeoutMs === undefined ? "psm" : "psm-search",
): postgres.Sql {
  const search =
    searchTimeoutMs === undefined
      ? {}
      : {
          statement_timeout: searchTimeoutMs,
          // One process per search: a hostile search spends one core at most, and its plan's
          // estimates are whole (countFacets reads them).
          max_parallel_workers_per_gather: 0,
          // Its statements are named (namedUpTo) and still planned with each call's values, as
          // unnamed statements are: a generic plan cannot use the trigram index.
          plan_cache_mode: "force_custom_plan",
        };
  return postgres(url, {
    max,
    // UTC: timestamps come back as text that Drizzle parses; one zone keeps them uniform.
    connection: {
      application_name: name,
      TimeZone: "UTC",
      ...search,
    },
    // The driver's lookup of array types on connecting would run under a search connection's bound
    // too, and fail when it is cancelled. Searches send and read no arrays, so that pool skips it.
    fetch_types: searchTimeoutMs === undefined,
    // NOTICEs (e.g. "already exists, skipping" from migrations) are not errors.
    onnotice: () => {},
  });
}

/** Opens a pool (see openConnection) and the drizzle handle over it; `name` as there. */
export function connect(url: string, max: number, name?: string): Connection {
  const sql = openConnection(url, max, undefined, name);
  return { sql, db: drizzle(sql, { schema }) };
}

/**
 * The search pool: every connection starts with `statement_timeout` as a
 * connection parameter, so a search is its statements alone (DESIGN.md
 * "Search pool"), and is named `psm-search` in pg_stat_activity.
 */
export function connectSearch(url: string, max: number, timeoutMs: number): Connection {
  const sql = openConnection(url, max, timeoutMs);
  return { sql, db: drizzle(namedUpTo(sql, SEARCH_STATEMENTS_MAX), { schema }) };
}

/**
 * SQL texts the search pool prepares as named statements, at most: each connection keeps the ones
 * it ran (postgres.js and the server alike, for the connection's life), so past this many distinct
 * texts a statement goes unnamed. Values are parameters, so texts differ only by shape (filters,
 * sort, part, cursor): bench:http's searches build 13, searches varied in every parameter 173,
 * which held 9.6 MB of one server connection's memory. DESIGN.md "Search pool".
 */
export const SEARCH_STATEMENTS_MAX = 64;

/**
 * `client` with the statements drizzle sends unnamed sent named instead, for the first `max`
 * distinct SQL texts. postgres.js sends an unnamed statement with parameters in two round trips
 * (Parse and Describe, then Bind and Execute once it knows the parameters' types); a named one it
 * has prepared on the connection in one (Bind and Execute), and the server parses it once.
 */
export function namedUpTo(client: postgres.Sql, max: number): postgres.Sql {
  const named = new Set<string>();
  const unsafe: postgres.Sql["unsafe"] = (query, parameters, options) => {
    if (!named.has(query) && named.size < max) named.add(query);
    return client.unsafe(query, parameters, { ...options, prepare: named.has(query) });
  };
  return new Proxy(client, {
    get: (target, key, receiver) => (key === "unsafe" ? unsafe : Reflect.get(target, key, receiver)),
  });
}
