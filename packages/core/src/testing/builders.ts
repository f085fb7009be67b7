import type { ApiKey } from "../domain/api-key.js";
import type { Listing } from "../domain/listing.js";
import type { Message } from "../domain/message.js";
import type { SavedSearch } from "../domain/saved-search.js";
import type { User } from "../domain/user.js";
import type { IdGenerator } from "../ports/clock.js";
import { sha256Hex } from "../support/crypto.js";
import { webCryptoRandom } from "../support/runtime.js";
import { createUuidV7Generator } from "../support/uuid-v7.js";
import { fakeHash, TEST_PASSWORD } from "./fakes/hasher.js";

// One generator per millisecond: an id then carries exactly the time it was
// built for (a single generator would clamp an earlier time to its last one),
// and ids built for the same millisecond still increase in build order.
// Builders default createdAt to the wall clock; pass `createdAt` to build a row
// (and its id) for a given instant, e.g. the test clock's now().
const generators = new Map<number, IdGenerator>();
let serial = 0;

/** A fresh UUIDv7 for `at`; ids for one instant increase in call order. */
export function testId(at: Date = new Date()): string {
  let generator = generators.get(at.getTime());
  if (!generator) {
    generator = createUuidV7Generator(webCryptoRandom);
    generators.set(at.getTime(), generator);
  }
  return generator.newId(at);
}

function next(): number {
  serial += 1;
  return serial;
}

/**
 * A row at `overrides.createdAt` (default now) with an id for that instant:
 * `fields(createdAt, n)` gives the rest, `n` a serial that keeps made-up
 * values unique, and `overrides` win over both.
 */
function build<T extends { id: string; createdAt: Date }>(
  overrides: Partial<T>,
  fields: (createdAt: Date, n: number) => Omit<T, "id" | "createdAt">,
): T {
  const createdAt = overrides.createdAt ?? new Date();
  const id = testId(createdAt);
  return { id, ...fields(createdAt, next()), ...overrides, createdAt } as T;
}

/** A valid user; its password is TEST_PASSWORD under the fake hasher. */
export function buildUser(overrides: Partial<User> = {}): User {
  return build(overrides, (_, n) => ({
    email: `user${n}@example.com`,
    displayName: `User ${n}`,
    isAdmin: false,
    accountType: "personal",
    passwordHash: fakeHash(TEST_PASSWORD),
    tokenVersion: 0,
    emailVerifiedAt: null,
  }));
}

/** A valid active listing; pass `userId` to attach it to a stored user. */
export function buildListing(overrides: Partial<Listing> = {}): Listing {
  return build(overrides, (createdAt, n) => ({
    title: `Listing ${n}`,
    description: `Description of listing ${n}.`,
    priceUnit: "fixed",
    price: 100,
    category: "software-development",
    condition: "good",
    images: [],
    userId: overrides.userId ?? testId(createdAt),
    structuredData: { ai_generated: true },
    status: "active",
    contactEmail: null,
    expiresAt: null,
    views: 0,
  }));
}

/** A valid active API key whose digest is of a unique made-up value. */
export function buildApiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return build(overrides, (createdAt, n) => ({
    userId: overrides.userId ?? testId(createdAt),
    name: `Key ${n}`,
    keyHash: sha256Hex(`psm_test_key_${n}_${createdAt.getTime()}`),
    prefix: null,
    scopes: null,
    expiresAt: null,
    isActive: true,
    lastUsed: null,
  }));
}

/** A valid message; pass the parties and listing to tie it to stored rows. */
export function buildMessage(overrides: Partial<Message> = {}): Message {
  return build(overrides, (createdAt, n) => ({
    listingId: overrides.listingId ?? testId(createdAt),
    senderId: overrides.senderId ?? testId(createdAt),
    receiverId: overrides.receiverId ?? testId(createdAt),
    content: `Message ${n}`,
    isAgent: false,
  }));
}

/** A saved search by category alone unless told otherwise. */
export function buildSavedSearch(overrides: Partial<SavedSearch> = {}): SavedSearch {
  return build(overrides, (createdAt, n) => ({
    userId: overrides.userId ?? testId(createdAt),
    name: `Search ${n}`,
    q: null,
    search: null,
    category: "software-development",
    minPrice: null,
    maxPrice: null,
  }));
}
