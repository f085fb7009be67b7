import type { PasswordHasher } from "../../ports/password-hasher.js";

const cache = new WeakMap<PasswordHasher, Promise<string>>();

/**
 * A hash of a random password made with the hasher's current parameters, so
 * verifying against it costs what verifying a real account costs.
 */
export function dummyHash(hasher: PasswordHasher): Promise<string> {
  let hash = cache.get(hasher);
  if (!hash) {
    hash = hasher.hash(`dummy-${Math.random()}-${Date.now()}`);
    // A failed attempt must not be cached: the next login tries again.
    hash.catch(() => cache.delete(hasher));
    cache.set(hasher, hash);
  }
  return hash;
}
