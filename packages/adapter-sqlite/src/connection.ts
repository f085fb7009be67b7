import { closeSync, constants, fchmodSync, openSync } from "node:fs";
import Database from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";

/** The drizzle handle the repositories share (query builder only, no relational API). */
export type Db = BetterSQLite3Database;

/** How long a writer waits for another connection's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

/** The most of the database file reads map into memory (SQLite's own default cap is 2 GiB). */
const MMAP_BYTES = 1 << 30;

/** Owner read and write only: the database holds password hashes, key digests and messages. */
const PRIVATE_MODE = 0o600;

/**
 * Creates `file` empty with mode 0600 when it does not exist (SQLite takes an
 * empty file for a new database). SQLite creates `-wal` and `-shm` with the
 * database file's own permissions, whatever the umask, so all three stay
 * private. An existing file keeps the mode it has: that is the operator's.
 */
function createPrivateFile(file: string): void {
  if (file === "" || file === ":memory:") return;
  let fd: number;
  try {
    // O_EXCL: of two processes starting at once, one creates and the other opens.
    fd = openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw error;
  }
  try {
    fchmodSync(fd, PRIVATE_MODE); // the umask may have taken bits away; it never adds any
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a better-sqlite3 connection to `file` (created 0600 if absent) with
 * the pragmas every connection of the adapter needs.
 */
export function openConnection(file: string): Database.Database {
  createPrivateFile(file);
  const sqlite = new Database(file);
  // First, so that switching to WAL while another process opens the file waits
  // instead of failing with SQLITE_BUSY.
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // WAL: readers never block the writer and a commit appends to one file.
  sqlite.pragma("journal_mode = WAL");
  // synchronous = FULL: each commit fsyncs the WAL before it returns, so an
  // acknowledged write survives power loss. Why, and its cost: DESIGN.md "Durability".
  sqlite.pragma("synchronous = FULL");
  // SQLite leaves foreign keys off per connection unless asked; the cascades
  // of deleteCascade depend on them.
  sqlite.pragma("foreign_keys = ON");
  // Reads beyond the page cache become memory loads instead of a pread() each;
  // writes still go through the WAL. Measured: DESIGN.md "Memory-mapped reads".
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  return sqlite;
}

/**
 * Hands back what reading left resident in the process: the page cache
 * (`shrink_memory`) and the mapped database pages. Changing `mmap_size` unmaps
 * the file at once; the next read maps it again, page by page as it touches
 * them, from the kernel's file cache, which kept them (minor faults, no I/O).
 * Mapped pages count in the process's RSS while it is idle otherwise: 54 MiB
 * of the bench's 20,000 listings (DESIGN.md "Memory-mapped reads").
 */
export function releaseMemory(sqlite: Database.Database): void {
  if (!sqlite.open) return;
  sqlite.pragma("shrink_memory");
  sqlite.pragma("mmap_size = 0");
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
}
