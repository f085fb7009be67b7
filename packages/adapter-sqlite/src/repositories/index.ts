import { createExclusiveGate, type Repositories, sharedThrough } from "@psm/core";
import type { Database } from "better-sqlite3";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { emailVerificationTokens, resetTokens } from "../schema.js";
import { createApiKeyRepository } from "./api-key-repository.js";
import { createEventAppender, createEventRepository } from "./event-repository.js";
import { createIdempotencyStore } from "./idempotency-store.js";
import { createListingRepository } from "./listing-repository.js";
import type { SearchOptions } from "./listing-search.js";
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
 * Every repository over one connection: listings on better-sqlite3's own
 * prepared statements (FTS5 and seq ordering), the rest on drizzle over it.
 *
 * A unit of work is one `BEGIN IMMEDIATE` transaction on this connection,
 * held across awaits. Since every caller shares the connection, a gate makes
 * the others wait while one is open (and the unit wait for calls already
 * running, queued view increments included), so none of their statements
 * lands inside it and none sees its uncommitted rows. Statements inside the
 * unit that open their own transaction nest as savepoints.
 */
export function createRepositories(sqlite: Database, db: Db, options: SearchOptions = {}): Repositories {
  const gate = createExclusiveGate();
  const appendEvents = createEventAppender(sqlite);
  const tables = {
    listings: createListingRepository(sqlite, appendEvents, options),
    users: createUserRepository(sqlite, db),
    apiKeys: createApiKeyRepository(sqlite, db),
    messages: createMessageRepository(sqlite, db, appendEvents),
    events: createEventRepository(sqlite, appendEvents),
    resetTokens: createTokenRepository(db, resetTokens),
    verificationTokens: createTokenRepository(db, emailVerificationTokens),
    mailQueue: createMailQueueRepository(sqlite, db),
    notifications: createNotificationRepository(db),
    webhooks: createWebhookRepository(db),
    webhookDeliveries: createWebhookDeliveryRepository(sqlite, db),
    savedSearches: createSavedSearchRepository(sqlite, db),
    sessions: createSessionRepository(db),
    oauthClients: createOAuthClientRepository(db),
    oauthGrants: createOAuthGrantRepository(db),
    idempotency: createIdempotencyStore(db),
  };
  const inUnit: Repositories = {
    ...tables,
    // Nested: the work joins the unit already open.
    unitOfWork: { run: (work) => work(inUnit) },
  };
  return {
    ...sharedThrough(tables, gate),
    unitOfWork: {
      run: (work) =>
        gate.exclusive(async () => {
          await guarded(() => sqlite.exec("BEGIN IMMEDIATE"));
          try {
            const result = await work(inUnit);
            await guarded(() => sqlite.exec("COMMIT"));
            return result;
          } catch (error) {
            // A failed COMMIT (another process holding the lock) leaves the transaction open too.
            if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
            throw error;
          }
        }),
    },
  };
}
