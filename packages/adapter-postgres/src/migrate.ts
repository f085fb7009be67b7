import { migrate } from "drizzle-orm/postgres-js/migrator";
import { connect } from "./connection.js";
import { MIGRATIONS_FOLDER } from "./migrations-folder.js";
import { rekeySavedSearches } from "./saved-search-rekey.js";

/** Advisory lock key shared by every process migrating this schema ("psm-migrate"). */
export const MIGRATION_LOCK_KEY = 7_359_116_277_097_071;

/**
 * Applies pending migrations while holding a session advisory lock, so that
 * processes starting at once take turns and later ones find nothing to do.
 * Drizzle's migrator takes no lock and opens its own transaction (postgres.js
 * `begin`, which a reserved connection lacks), so it runs on a pool of exactly
 * one connection: the lock, the journal read and the migration transaction
 * all share that session.
 */
export async function applyMigrations(url: string): Promise<void> {
  const { sql, db } = connect(url, 1);
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
      // Rows a migration marked for keys only JS can work out, under the same lock.
      await rekeySavedSearches(db);
    } finally {
      // Ending the session below releases the lock anyway, so a failed unlock
      // (the connection died) must not hide the migration's own error.
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => undefined);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
