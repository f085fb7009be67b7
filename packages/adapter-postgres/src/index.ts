import type { Storage } from "@psm/core";
import { connect } from "./connection.js";
import { guarded } from "./db-errors.js";
import { applyMigrations } from "./migrate.js";
import { createRepositories } from "./repositories/index.js";

/** How to reach PostgreSQL. */
export interface PostgresStorageOptions {
  /** A `postgres://` or `postgresql://` URL. */
  url: string;
  /** Connections in this process's pool (default 10). */
  poolMax?: number | undefined;
  /**
   * Database time, in milliseconds, a search with a term may take before
   * PostgreSQL cancels it and it answers the matches among the newest listings
   * it can examine, with a cursor to go on (default 35). Why 35, and what it
   * costs: DESIGN.md "Search budget".
   */
  searchTimeoutMs?: number | undefined;
}

/** Seconds close() lets in-flight queries finish before connections are cut. */
const DRAIN_TIMEOUT_SECONDS = 5;

/**
 * Storage on PostgreSQL through a postgres.js pool. Connections open lazily,
 * so this never throws for an unreachable server; migrate() and ping() tell.
 */
export function openPostgresStorage(options: PostgresStorageOptions): Storage {
  const { sql, db } = connect(options.url, options.poolMax ?? 10);
  return {
    repositories: createRepositories(db, { searchTimeoutMs: options.searchTimeoutMs }),
    migrate: () => guarded(() => applyMigrations(options.url)),
    async ping() {
      try {
        await sql`select 1`;
        return true;
      } catch {
        return false;
      }
    },
    close: () => guarded(() => sql.end({ timeout: DRAIN_TIMEOUT_SECONDS })),
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
