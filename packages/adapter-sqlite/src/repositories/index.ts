import type { Repositories } from "@psm/core";
import type { Database } from "better-sqlite3";
import type { Db } from "../connection.js";
import { emailVerificationTokens, resetTokens } from "../schema.js";
import { createApiKeyRepository } from "./api-key-repository.js";
import { createListingRepository } from "./listing-repository.js";
import { createMailQueueRepository } from "./mail-queue-repository.js";
import { createMessageRepository } from "./message-repository.js";
import { createTokenRepository } from "./reset-token-repository.js";
import { createUserRepository } from "./user-repository.js";

/**
 * Every repository over one connection: listings on better-sqlite3's own
 * prepared statements (FTS5 and seq ordering), the rest on drizzle over it.
 */
export function createRepositories(sqlite: Database, db: Db): Repositories {
  return {
    listings: createListingRepository(sqlite),
    users: createUserRepository(db),
    apiKeys: createApiKeyRepository(db),
    messages: createMessageRepository(db),
    resetTokens: createTokenRepository(db, resetTokens),
    verificationTokens: createTokenRepository(db, emailVerificationTokens),
    mailQueue: createMailQueueRepository(db),
  };
}
