import Database from "better-sqlite3";

/** How long a writer waits for another connection's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

/** Opens a better-sqlite3 connection to `file` with the pragmas every connection needs. */
export function openConnection(file: string): Database.Database {
  const sqlite = new Database(file);
  // First, so that switching to WAL while another process opens the file waits
  // instead of failing with SQLITE_BUSY.
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // WAL: readers never block the writer and a commit appends to one file.
  sqlite.pragma("journal_mode = WAL");
  // synchronous = FULL: in WAL mode each commit fsyncs the WAL before it
  // returns, so a write the API has acknowledged survives power loss or an OS
  // crash. NORMAL would sync only at checkpoints: safe from a process crash but
  // able to lose the last commits on power loss. The cost is one fsync per
  // write transaction (see the benchmark); reads are unaffected.
  sqlite.pragma("synchronous = FULL");
  // SQLite leaves foreign keys off per connection unless asked; the cascades
  // of deleteCascade depend on them.
  sqlite.pragma("foreign_keys = ON");
  return sqlite;
}
