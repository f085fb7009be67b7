import type { Repositories } from "@psm/core";
import type { Db } from "../connection.js";
import { toMarketplaceError } from "../db-errors.js";
import { emailVerificationTokens, resetTokens } from "../schema.js";
import { createApiKeyRepository } from "./api-key-repository.js";
import { createIdempotencyStore } from "./idempotency-store.js";
import { createListingRepository, type ListingRepositoryOptions } from "./listing-repository.js";
import { createMailQueueRepository } from "./mail-queue-repository.js";
import { createMessageRepository } from "./message-repository.js";
import { createTokenRepository } from "./reset-token-repository.js";
import { createSessionRepository } from "./session-repository.js";
import { createUserRepository } from "./user-repository.js";

/**
 * Every repository over one Drizzle handle: the pool's, or a transaction's. A
 * unit of work is one transaction on one pooled connection, with the same
 * repositories built over it; units run concurrently, each atomic and unseen
 * by others until it commits. Transactions the repositories open inside it
 * nest as savepoints.
 */
export function createRepositories(db: Db, options: ListingRepositoryOptions = {}): Repositories {
  return {
    listings: createListingRepository(db, options),
    users: createUserRepository(db),
    apiKeys: createApiKeyRepository(db),
    messages: createMessageRepository(db),
    resetTokens: createTokenRepository(db, resetTokens),
    verificationTokens: createTokenRepository(db, emailVerificationTokens),
    mailQueue: createMailQueueRepository(db),
    sessions: createSessionRepository(db),
    idempotency: createIdempotencyStore(db),
    unitOfWork: {
      async run(work) {
        // The work's own failure passes through as thrown; only BEGIN and
        // COMMIT failures are the driver's, translated like any other.
        let failure: { error: unknown } | undefined;
        try {
          return await db.transaction(async (tx) => {
            try {
              return await work(createRepositories(tx, options));
            } catch (error) {
              failure = { error };
              throw error;
            }
          });
        } catch (error) {
          throw failure ? failure.error : toMarketplaceError(error);
        }
      },
    },
  };
}
