import type { Database } from "better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Db } from "./connection.js";
import { MIGRATIONS_FOLDER } from "./migrations-folder.js";
import { rekeySavedSearches } from "./saved-search-rekey.js";

/** Whether the journal already records the newest migration in the folder. */
function upToDate(sqlite: Database): boolean {
  const newest = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).at(-1);
  if (!newest) return true;
  const journal = sqlite
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE name = '__drizzle_migrations'")
    .get();
  if (!journal) return false;
  const last = sqlite.prepare<[], number>("SELECT max(created_at) FROM __drizzle_migrations").pluck().get();
  return last !== undefined && last !== null && Number(last) >= newest.folderMillis;
}

/**
 * Applies pending migrations with drizzle's migrator (one transaction for all).
 * The migrator reads its journal before it takes the write lock, so when two
 * processes start at once the second can fail on tables the first just made;
 * if the journal is complete after such a failure, the work is done and the
 * failure was only the lost race. Then the rows a migration marked for keys
 * only JS can work out are keyed.
 */
export function applyMigrations(db: Db, sqlite: Database): void {
  try {
    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (error) {
    if (!upToDate(sqlite)) throw error;
  }
  rekeySavedSearches(db);
}
