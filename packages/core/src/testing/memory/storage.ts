import type { Storage } from "../../ports/repositories.js";
import { createMemoryApiKeyRepository } from "./api-key-repository.js";
import { createMemoryListingRepository } from "./listing-repository.js";
import { createMemoryMailQueueRepository } from "./mail-queue-repository.js";
import { createMemoryMessageRepository } from "./message-repository.js";
import { createMemoryTokenRepository } from "./reset-token-repository.js";
import { createMemoryState } from "./state.js";
import { createMemoryUserRepository } from "./user-repository.js";

/**
 * A fresh, empty in-memory storage: the reference implementation of the
 * repository contract, and the storage of use-case tests.
 */
export function createMemoryStorage(): Storage {
  const state = createMemoryState();
  let open = true;
  return {
    repositories: {
      listings: createMemoryListingRepository(state),
      users: createMemoryUserRepository(state),
      apiKeys: createMemoryApiKeyRepository(state),
      messages: createMemoryMessageRepository(state),
      resetTokens: createMemoryTokenRepository(state, "resetTokens"),
      verificationTokens: createMemoryTokenRepository(state, "verificationTokens"),
      mailQueue: createMemoryMailQueueRepository(state),
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
