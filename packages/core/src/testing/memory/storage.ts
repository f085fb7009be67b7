import type { Repositories, Storage } from "../../ports/repositories.js";
import { createExclusiveGate, sharedThrough } from "../../support/exclusive-gate.js";
import { createMemoryApiKeyRepository } from "./api-key-repository.js";
import { createMemoryEventRepository } from "./event-repository.js";
import { createMemoryIdempotencyStore } from "./idempotency-store.js";
import { createMemoryListingRepository } from "./listing-repository.js";
import { createMemoryMailQueueRepository } from "./mail-queue-repository.js";
import { createMemoryMessageRepository } from "./message-repository.js";
import { createMemoryNotificationRepository } from "./notification-repository.js";
import { createMemoryOAuthClientRepository, createMemoryOAuthGrantRepository } from "./oauth-repository.js";
import { createMemoryTokenRepository } from "./reset-token-repository.js";
import { createMemorySavedSearchRepository } from "./saved-search-repository.js";
import { createMemorySessionRepository } from "./session-repository.js";
import { createMemoryState, snapshotState } from "./state.js";
import { createMemoryUserRepository } from "./user-repository.js";
import {
  createMemoryWebhookDeliveryRepository,
  createMemoryWebhookRepository,
} from "./webhook-repository.js";

/**
 * A fresh, empty in-memory storage: the reference implementation of the
 * repository contract, and the storage of use-case tests. A unit of work runs
 * alone (other calls wait) and restores every table when it throws.
 */
export function createMemoryStorage(): Storage {
  const state = createMemoryState();
  const gate = createExclusiveGate();
  let open = true;
  const tables = {
    listings: createMemoryListingRepository(state),
    users: createMemoryUserRepository(state),
    apiKeys: createMemoryApiKeyRepository(state),
    messages: createMemoryMessageRepository(state),
    resetTokens: createMemoryTokenRepository(state, "resetTokens"),
    verificationTokens: createMemoryTokenRepository(state, "verificationTokens"),
    mailQueue: createMemoryMailQueueRepository(state),
    sessions: createMemorySessionRepository(state),
    oauthClients: createMemoryOAuthClientRepository(state),
    oauthGrants: createMemoryOAuthGrantRepository(state),
    idempotency: createMemoryIdempotencyStore(state),
    events: createMemoryEventRepository(state),
    webhooks: createMemoryWebhookRepository(state),
    notifications: createMemoryNotificationRepository(state),
    webhookDeliveries: createMemoryWebhookDeliveryRepository(state),
    savedSearches: createMemorySavedSearchRepository(state),
  };
  const inUnit: Repositories = {
    ...tables,
    // Nested: already inside the unit, so the work joins it.
    unitOfWork: { run: (work) => work(inUnit) },
  };
  return {
    repositories: {
      ...sharedThrough(tables, gate),
      unitOfWork: {
        run: (work) =>
          gate.exclusive(async () => {
            const rollback = snapshotState(state);
            try {
              return await work(inUnit);
            } catch (error) {
              rollback();
              throw error;
            }
          }),
      },
    },
    async migrate() {},
    async ping() {
      return open;
    },
    async close() {
      open = false;
    },
  };
}
