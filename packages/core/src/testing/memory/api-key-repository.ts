import { type ApiKey, keyRefusal } from "../../domain/api-key.js";
import type { PageQuery } from "../../domain/page.js";
import { MarketplaceError } from "../../errors.js";
import type { ApiKeyRepository } from "../../ports/api-key-repository.js";
import { copy, copyOrNull, insertNew, type MemoryState, pageById, requireUser } from "./state.js";

/** The in-memory ApiKeyRepository. */
export function createMemoryApiKeyRepository(state: MemoryState): ApiKeyRepository {
  const { apiKeys } = state;

  function findByHash(keyHash: string): ApiKey | undefined {
    for (const key of apiKeys.values()) if (key.keyHash === keyHash) return key;
    return undefined;
  }

  return {
    async insert(key: ApiKey) {
      if (findByHash(key.keyHash)) throw new MarketplaceError("internal_error");
      requireUser(state, key.userId);
      insertNew(apiKeys, key.id, copy(key));
    },
    async findById(id: string) {
      return copyOrNull(apiKeys.get(id));
    },
    async findByHash(keyHash: string) {
      return copyOrNull(findByHash(keyHash));
    },
    async findByHashWithUser(keyHash: string) {
      const key = findByHash(keyHash);
      return key ? { key: copy(key), user: copyOrNull(state.users.get(key.userId)) } : null;
    },
    async list(userId: string | undefined, page: PageQuery) {
      const rows = [...apiKeys.values()].filter((key) => userId === undefined || key.userId === userId);
      return pageById(rows, page);
    },
    async deactivate(id: string) {
      const key = apiKeys.get(id);
      if (!key) return false;
      key.isActive = false;
      return true;
    },
    async deactivateByUser(userId: string, createdBefore?: Date) {
      let count = 0;
      for (const key of apiKeys.values()) {
        const before = createdBefore === undefined || key.createdAt.getTime() < createdBefore.getTime();
        if (key.userId === userId && key.isActive && before) {
          key.isActive = false;
          count++;
        }
      }
      return count;
    },
    async rotate(id: string, replacement: ApiKey, expiresAt: Date, now: Date) {
      const key = apiKeys.get(id);
      if (!key || keyRefusal(key, now) !== null) return false;
      if (findByHash(replacement.keyHash)) throw new MarketplaceError("internal_error");
      insertNew(apiKeys, replacement.id, copy(replacement));
      if (key.expiresAt === null || expiresAt.getTime() < key.expiresAt.getTime()) {
        key.expiresAt = new Date(expiresAt.getTime());
      }
      return true;
    },
    async touchLastUsed(id: string, now: Date, minIntervalMs: number) {
      const key = apiKeys.get(id);
      if (!key) return;
      if (key.lastUsed !== null && now.getTime() - key.lastUsed.getTime() < minIntervalMs) return;
      key.lastUsed = new Date(now.getTime());
    },
  };
}
