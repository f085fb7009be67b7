import type { Repositories } from "@psm/core";
import type { Db } from "../connection.js";
import { emailVerificationTokens, resetTokens } from "../schema.js";
import { createApiKeyRepository } from "./api-key-repository.js";
import { createListingRepository } from "./listing-repository.js";
import { createMailQueueRepository } from "./mail-queue-repository.js";
import { createMessageRepository } from "./message-repository.js";
import { createTokenRepository } from "./reset-token-repository.js";
import { createUserRepository } from "./user-repository.js";

/** Every repository over one Drizzle database. */
export function createRepositories(db: Db): Repositories {
  return {
    listings: createListingRepository(db),
    users: createUserRepository(db),
    apiKeys: createApiKeyRepository(db),
    messages: createMessageRepository(db),
    resetTokens: createTokenRepository(db, resetTokens),
    verificationTokens: createTokenRepository(db, emailVerificationTokens),
    mailQueue: createMailQueueRepository(db),
  };
}
