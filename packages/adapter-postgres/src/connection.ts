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
 * named pages go generic; a search with a term is sent unnamed
 * (listing-repository.ts). Why: DESIGN.md "Named pages, unnamed searches".
 */
export function openConnection(url: string, max: number): postgres.Sql {
  return postgres(url, {
    max,
    // UTC: timestamps come back as text that Drizzle parses; one zone keeps them uniform.
    connection: { application_name: "psm", TimeZone: "UTC" },
    // NOTICEs (e.g. "already exists, skipping" from migrations) are not errors.
    onnotice: () => {},
  });
}

/** Opens a pool (see openConnection) and the drizzle handle over it. */
export function connect(url: string, max: number): Connection {
  const sql = openConnection(url, max);
  return { sql, db: drizzle(sql, { schema }) };
}
