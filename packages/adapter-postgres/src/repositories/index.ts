import type { NewEvent, Repositories } from "@psm/core";
import type { Db } from "../connection.js";
import { toMarketplaceError } from "../db-errors.js";
import { emailVerificationTokens, resetTokens } from "../schema.js";
import { createApiKeyRepository } from "./api-key-repository.js";
import { createEventRepository } from "./event-repository.js";
import { writeEvents } from "./event-writer.js";
import { createIdempotencyStore } from "./idempotency-store.js";
import { createListingRepository, type ListingRepositoryOptions } from "./listing-repository.js";
import { createMailQueueRepository } from "./mail-queue-repository.js";
import { createMessageRepository } from "./message-repository.js";
import { createNotificationRepository } from "./notification-repository.js";
import { createOAuthClientRepository, createOAuthGrantRepository } from "./oauth-repository.js";
import { createTokenRepository } from "./reset-token-repository.js";
import { createSavedSearchRepository } from "./saved-search-repository.js";
import { createSessionRepository } from "./session-repository.js";
import { createUserRepository } from "./user-repository.js";
import { createWebhookDeliveryRepository } from "./webhook-delivery-repository.js";
import { createWebhookRepository } from "./webhook-repository.js";

/**
 * Every repository over one Drizzle handle: the pool's, or a transaction's. A
 * unit of work is one transaction on one pooled connection, with the same
 * repositories built over it; units run concurrently, each atomic and unseen
 * by others until it commits. Transactions the repositories open inside it
 * nest as savepoints. `outbox`, given inside a unit, collects the events its
 * repositories' changes write, for the unit to write at its end.
 */
export function createRepositories(
  db: Db,
  options: ListingRepositoryOptions = {},
  outbox?: NewEvent[],
): Repositories {
  const reads = options.reads ?? db;
  return {
    listings: createListingRepository(db, options, outbox),
    users: createUserRepository(db, reads),
    apiKeys: createApiKeyRepository(db, reads),
    messages: createMessageRepository(db, outbox, reads),
    events: createEventRepository(db, outbox, reads),
    resetTokens: createTokenRepository(db, resetTokens),
    verificationTokens: createTokenRepository(db, emailVerificationTokens),
    mailQueue: createMailQueueRepository(db),
    oauthClients: createOAuthClientRepository(db),
    oauthGrants: createOAuthGrantRepository(db, reads),
    notifications: createNotificationRepository(db),
    webhooks: createWebhookRepository(db),
    webhookDeliveries: createWebhookDeliveryRepository(db),
    savedSearches: createSavedSearchRepository(db),
    sessions: createSessionRepository(db, reads),
    idempotency: createIdempotencyStore(db),
    unitOfWork: {
      async run(work) {
        // The work's own failure passes through as thrown; only BEGIN and
        // COMMIT failures (and the events' write) are the driver's, translated
        // like any other.
        let failure: { error: unknown } | undefined;
        const own: NewEvent[] = [];
        try {
          const result = await db.transaction(async (tx) => {
            let done: Awaited<ReturnType<typeof work>>;
            try {
              // Its reads too: a unit reads its own writes, in its transaction.
              done = await work(createRepositories(tx, { ...options, reads: undefined }, own));
            } catch (error) {
              failure = { error };
              throw error;
            }
            // The unit's events, last, so the counter row is held only until
            // the COMMIT: DESIGN.md "Event log". A nested unit (a savepoint)
            // hands them to the enclosing one instead, below.
            if (outbox === undefined) await writeEvents(tx, own);
            return done;
          });
          outbox?.push(...own);
          return result;
        } catch (error) {
          throw failure ? failure.error : toMarketplaceError(error);
        }
      },
    },
  };
}
