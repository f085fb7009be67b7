import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "../../domain/actor.js";
import type { Listing } from "../../domain/listing.js";
import { listingMatchKeys, matchesSavedSearch, type SavedSearch } from "../../domain/saved-search.js";
import type { Repositories } from "../../ports/repositories.js";
import { searchListings } from "../../use-cases/listings/search-listings.js";
import { seededRandom as random } from "../adversarial-terms.js";
import { buildSavedSearch } from "../builders.js";
import type { ContractContext } from "./context.js";
import { seedListings, seedUser } from "./context.js";
import { NOW } from "./listing-catalog.js";
import { CATEGORIES, PREFIXES, pick, randomListing, some } from "./listing-oracle.js";

/** Random search parameters of every kind a saved search holds; at least one of them. */
function randomSearch(next: () => number, owner: string, titles: readonly string[]): SavedSearch {
  const fields: Partial<SavedSearch> = { userId: owner, category: null };
  if (next() < 0.6) {
    const words = some(next, 1, 2);
    if (next() < 0.3) words[words.length - 1] = pick(next, PREFIXES);
    fields.q = words.join(" ");
  }
  if (next() < 0.35) {
    // A piece of some title, in another case: the title substring `search`.
    const title = pick(next, titles);
    const from = Math.floor(next() * title.length);
    const piece = title.slice(from, from + 1 + Math.floor(next() * 6));
    fields.search = next() < 0.5 ? piece.toUpperCase() : piece;
  }
  if (next() < 0.25) fields.category = pick(next, CATEGORIES);
  if (next() < 0.25) fields.minPrice = Math.floor(next() * 5) * 25;
  if (next() < 0.25) fields.maxPrice = (fields.minPrice ?? 0) + Math.floor(next() * 5) * 25;
  if (Object.keys(fields).length === 2 && fields.category === null) fields.category = pick(next, CATEGORIES);
  return buildSavedSearch(fields);
}

/** Every listing GET /api/listings answers for the saved search's parameters, page by page. */
async function searchAll(repos: Repositories, search: SavedSearch): Promise<string[]> {
  const deps = { repos, clock: { now: () => NOW } };
  const found: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await searchListings(deps, ANONYMOUS, {
      q: search.q ?? undefined,
      search: search.search ?? undefined,
      category: search.category ?? undefined,
      minPrice: search.minPrice ?? undefined,
      maxPrice: search.maxPrice ?? undefined,
      limit: 100,
      cursor,
    });
    found.push(...result.items.map((listing) => listing.id));
    if (result.nextCursor === null) return found.sort();
    cursor = result.nextCursor;
  }
  throw new Error("the search did not end");
}

/**
 * A property test: a saved search matches a listing exactly when GET /api/listings with its
 * parameters answers that listing, on this storage; and the storage's candidate lookup by a
 * listing's match keys misses none of the saved searches that match it.
 */
export function savedSearchOracleCases(ctx: ContractContext): void {
  describe("saved search matching against the real search", () => {
    for (const seed of [3, 4]) {
      it(`agrees on random listings and saved searches (seed ${seed})`, async () => {
        const next = random(seed);
        const repos = ctx.repos();
        const [author, owner] = [await seedUser(repos), await seedUser(repos)];
        const listings: Listing[] = Array.from({ length: 50 }, (_, i) => randomListing(next, author, i));
        await seedListings(repos, listings);
        const titles = listings.map((listing) => listing.title);
        const searches = Array.from({ length: 40 }, () => randomSearch(next, owner.id, titles));
        for (const search of searches) await repos.savedSearches.insertWithinLimit(search, 1000);
        for (const search of searches) {
          const label = `seed ${seed}: ${JSON.stringify(search)}`;
          const matched = listings.filter((listing) => matchesSavedSearch(listing, search, NOW));
          expect(matched.map((listing) => listing.id).sort(), label).toEqual(await searchAll(repos, search));
        }
        for (const listing of listings) {
          const wanted = searches.filter((search) => matchesSavedSearch(listing, search, NOW));
          const candidates = await repos.savedSearches.findCandidates([...listingMatchKeys(listing)]);
          const found = candidates.filter((search) => matchesSavedSearch(listing, search, NOW));
          expect(found.map((search) => search.id).sort(), listing.title).toEqual(
            wanted.map((search) => search.id).sort(),
          );
        }
      });
    }
  });
}
