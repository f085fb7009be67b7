import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Listing, Storage, User } from "@psm/core";
import type { Database } from "better-sqlite3";
import { openConnection } from "../connection.js";
import { openSqliteStorage } from "../index.js";

const made: string[] = [];

/** A fresh database file path under the OS temp folder. */
export function tempDbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "psm-sqlite-"));
  made.push(dir);
  return join(dir, "test.db");
}

/** A migrated storage on a fresh temp file. */
export async function openMigrated(file = tempDbFile()): Promise<Storage> {
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  return storage;
}

/**
 * A migrated temp file holding `author`, opened as a bare connection with the adapter's pragmas:
 * for tests that write rows past the repositories (createListingWriter) and drive the runners.
 */
export async function migratedConnection(author: User): Promise<Database> {
  const file = tempDbFile();
  const storage = await openMigrated(file);
  await storage.repositories.users.insert(author);
  await storage.close();
  return openConnection(file);
}

/** Inserts `author` and then `rows` through the repositories, one listing at a time as the API does. */
export async function insertListings(storage: Storage, author: User, rows: readonly Listing[], now: Date) {
  await storage.repositories.users.insert(author);
  for (const row of rows) await storage.repositories.listings.insertWithinSlots(row, { maxSlots: 1000, now });
}

/** Removes every temp folder made so far (call from afterAll). */
export function removeTempDbs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
