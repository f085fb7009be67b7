import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema.js";

/** The Drizzle database the repositories query. */
export type Database = PostgresJsDatabase<typeof schema>;

/** The handle inside `db.transaction(...)`. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A postgres.js pool and the Drizzle database over it. */
export interface Connection {
  sql: postgres.Sql;
  db: Database;
}

/**
 * Opens a pool of at most `max` connections. Each connection starts with
 * `plan_cache_mode = force_custom_plan`: after five executions of a named
 * prepared statement PostgreSQL may switch to a generic plan, which cannot see
 * the search pattern and so ignores the trigram index (seconds at 1M rows).
 * Drizzle already sends unnamed statements; this also covers raw tagged queries.
 */
export function connect(url: string, max: number): Connection {
  const sql = postgres(url, {
    max,
    // UTC: timestamps come back as text that Drizzle parses; one zone keeps them uniform.
    connection: { application_name: "psm", TimeZone: "UTC", plan_cache_mode: "force_custom_plan" },
    // NOTICEs (e.g. "already exists, skipping" from migrations) are not errors.
    onnotice: () => {},
  });
  return { sql, db: drizzle(sql, { schema }) };
}
