import { afterEach, beforeEach } from "vitest";
import type { Listing } from "../../domain/listing.js";
import type { User } from "../../domain/user.js";
import type { Repositories, Storage } from "../../ports/repositories.js";
import { buildListing, buildUser } from "../builders.js";

/** How a backend takes part in the contract. */
export interface ContractOptions {
  /** A fresh, empty storage for each case; the suite migrates and closes it. */
  open: () => Promise<Storage>;
  /** False skips the cases that race callers against each other. Default true. */
  concurrency?: boolean;
}

/** What each group of cases sees. */
export interface ContractContext {
  storage(): Storage;
  repos(): Repositories;
  /** Whether racing cases run. */
  concurrency: boolean;
}

/** A fixed instant the cases count from, so no case depends on the wall clock. */
export const T0 = new Date("2026-03-01T12:00:00.000Z");

/** T0 plus `ms`. */
export function at(ms: number): Date {
  return new Date(T0.getTime() + ms);
}

/** One minute in milliseconds. */
export const MINUTE = 60_000;
/** One hour in milliseconds. */
export const HOUR = 60 * MINUTE;

/** Large enough never to be the limit. */
export const NO_LIMIT = { maxSlots: 1_000_000, now: T0 } as const;

/** Registers the open/migrate/close hooks; call inside the suite's describe. */
export function useStorage(options: ContractOptions): ContractContext {
  let current: Storage | undefined;
  beforeEach(async () => {
    current = await options.open();
    await current.migrate();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const storage = (): Storage => {
    if (!current) throw new Error("storage is only open inside a test");
    return current;
  };
  return { storage, repos: () => storage().repositories, concurrency: options.concurrency ?? true };
}

/** Inserts a user (storage adapters may hold foreign keys to users). */
export async function seedUser(repos: Repositories, overrides: Partial<User> = {}): Promise<User> {
  const user = buildUser({ createdAt: T0, ...overrides });
  await repos.users.insert(user);
  return user;
}

/** Inserts listings in the given order, bypassing any real limit. */
export async function seedListings(repos: Repositories, listings: Listing[]): Promise<Listing[]> {
  for (const listing of listings) {
    if (!(await repos.listings.insertWithinSlots(listing, NO_LIMIT))) throw new Error("seed insert refused");
  }
  return listings;
}

/** A listing of `user` created `offsetMs` after T0. */
export function listingOf(user: User, offsetMs: number, overrides: Partial<Listing> = {}): Listing {
  return buildListing({ userId: user.id, createdAt: at(offsetMs), ...overrides });
}

/** Ids, newest first (id descending), as every list returns them. */
export function newestFirst(rows: readonly { id: string }[]): string[] {
  return rows.map((row) => row.id).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** Ids of rows, in the order given. */
export function ids(rows: readonly { id: string }[]): string[] {
  return rows.map((row) => row.id);
}

/** A fixed reordering (odd positions reversed, then even), so insertion order is not id order. */
export function shuffled<T>(rows: readonly T[]): T[] {
  const odd = rows.filter((_, i) => i % 2 === 1).reverse();
  return [...odd, ...rows.filter((_, i) => i % 2 === 0)];
}
