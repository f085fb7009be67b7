/** The database an older release left behind, for the upgrade tests of migrations*.test.ts. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { User } from "@psm/core";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { expect } from "vitest";
import { MIGRATIONS_FOLDER } from "../src/index.js";
import { tempDbFile } from "../src/test-support/temp-db.js";

/**
 * A fresh database file with every migration before `tag` applied, as the
 * release without `tag` applied them: drizzle's migrator over a copy of the
 * folder whose journal stops there. Returned open, for the test to write the
 * old schema's rows and close it before the adapter upgrades it.
 */
export function databaseBefore(tag: string): { file: string; sqlite: Database.Database } {
  const folder = mkdtempSync(join(tmpdir(), "psm-sqlite-migrations-"));
  try {
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const cut = journal.entries.findIndex((entry) => entry.tag === tag);
    expect(cut).toBeGreaterThan(0);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
    const file = tempDbFile();
    const sqlite = new Database(file);
    // The adapter's connections all have it on (connection.ts), so the old releases' did too.
    sqlite.pragma("foreign_keys = ON");
    try {
      migrate(drizzle({ client: sqlite }), { migrationsFolder: folder });
    } catch (error) {
      sqlite.close();
      throw error;
    }
    return { file, sqlite };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Writes `user` as every release's schema holds one (the columns of 0000, the
 * later ones defaulted), for an upgrade test's rows that belong to a user.
 */
export function insertOldUser(sqlite: Database.Database, user: User): void {
  sqlite
    .prepare(
      "INSERT INTO users (id, email, display_name, account_type, password_hash, token_version, created_at) VALUES (?, ?, ?, 'personal', ?, 0, ?)",
    )
    .run(user.id, user.email, user.displayName, user.passwordHash, user.createdAt.getTime());
}
