import { expect } from "vitest";
import type { ApiKey } from "../../domain/api-key.js";
import type { ApiKeyRepository } from "../../ports/api-key-repository.js";
import { buildApiKey } from "../builders.js";

/**
 * What an adapter's migration test checks of a key stored before scopes (1.2): after the forward
 * migration it reads back unrestricted and unexpiring, with no prefix, and it can be rotated.
 */
export async function expectUpgradedKeyWorks(keys: ApiKeyRepository, key: ApiKey): Promise<void> {
  expect(await keys.findByHash(key.keyHash)).toEqual(key);
  expect(key).toMatchObject({ prefix: null, scopes: null, expiresAt: null });
  const now = new Date();
  const until = new Date(now.getTime() + 60_000);
  const replacement = buildApiKey({ userId: key.userId, scopes: ["listings:write"], createdAt: now });
  expect(await keys.rotate(key.id, replacement, until, now)).toBe(true);
  expect(await keys.findById(key.id)).toEqual({ ...key, expiresAt: until });
  expect(await keys.findById(replacement.id)).toEqual(replacement);
}
