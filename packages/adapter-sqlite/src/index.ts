import type { Storage } from "@psm/core";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { openConnection } from "./connection.js";
import { run } from "./db-errors.js";
import { applyMigrations } from "./migrate.js";
import { once } from "./once.js";
import { createApiKeyRepository } from "./repositories/api-key-repository.js";
import { createListingRepository } from "./repositories/listing-repository.js";
import { createMailQueueRepository } from "./repositories/mail-queue-repository.js";
import { createMessageRepository } from "./repositories/message-repository.js";
import { createTokenRepository } from "./repositories/reset-token-repository.js";
import { createUserRepository } from "./repositories/user-repository.js";
import { emailVerificationTokens, resetTokens } from "./schema.js";

/** Options of the SQLite storage. */
export interface SqliteStorageOptions {
  /** Path of the database file; created if absent. */
  file: string;
}

/**
 * Opens (creating if needed) the SQLite database at `file` and returns the
 * repositories on it. Call `migrate()` before first use.
 */
export function openSqliteStorage(options: SqliteStorageOptions): Storage {
  const sqlite = openConnection(options.file);
  const db = drizzle({ client: sqlite });
  const repositories: Storage["repositories"] = {
    listings: createListingRepository(sqlite),
    users: createUserRepository(db),
    apiKeys: createApiKeyRepository(db),
    messages: createMessageRepository(db),
    resetTokens: createTokenRepository(db, resetTokens),
    verificationTokens: createTokenRepository(db, emailVerificationTokens),
    mailQueue: createMailQueueRepository(db),
  };
  const probe = once(() => sqlite.prepare<[], number>("SELECT 1").pluck());
  return {
    repositories,
    migrate: () => run(() => applyMigrations(db, sqlite)),
    ping: () => run(() => probe().get() === 1).catch(() => false),
    close: () =>
      run(() => {
        if (!sqlite.open) return;
        // Refreshes planner statistics where they changed; cheap, and the docs
        // recommend it before closing a connection.
        sqlite.pragma("optimize");
        sqlite.close();
      }),
  };
}

/** Where the committed SQL migrations live (for tools that apply them themselves). */
export { MIGRATIONS_FOLDER } from "./migrate.js";
