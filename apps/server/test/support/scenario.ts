/** What the tests of one end-to-end scenario share, made once before them: its accounts and a listing. */
import { beforeAll } from "vitest";
import type { Json } from "./http.js";
import type { Account, World } from "./world.js";

/**
 * Accounts a scenario's tests share, signed up in a beforeAll this registers.
 * They are filled in place there, so a describe block can name them up front
 * (`const [owner, other] = ...`) while its tests read them once they run.
 */
export function accountsBeforeAll<const L extends readonly string[]>(
  world: () => World,
  ...labels: L
): { -readonly [K in keyof L]: Account } {
  const cast = labels.map(() => ({}) as Account);
  beforeAll(async () => {
    const made: readonly Account[] = await world().accounts(...labels);
    for (const [i, account] of made.entries()) Object.assign(cast[i]!, account);
  });
  return cast as { -readonly [K in keyof L]: Account };
}

/**
 * A listing by `owner` (World.listing) that a scenario's tests share, made in
 * a beforeAll registered after the accounts' and filled in place like them.
 */
export function listingBeforeAll(world: () => World, owner: Account, fields: Record<string, unknown>): Json {
  const listing: Record<string, Json> = {};
  beforeAll(async () => {
    Object.assign(listing, await world().listing(owner, fields));
  });
  return listing;
}
