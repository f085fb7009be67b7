import type { Category } from "../../domain/category.js";
import type { Listing } from "../../domain/listing.js";
import { rankListing } from "../../domain/listing-criteria.js";
import { compareSortKeys, sortKeyOf } from "../../domain/listing-sort.js";
import type {
  CategoryCounts,
  FacetQuery,
  FoundListing,
  ListingFind,
  ListingFindResult,
} from "../../ports/listing-repository.js";
import { copy } from "./state.js";

/** ListingRepository.find over `listings`, exactly, with no bound on its work (the reference). */
export function findListings(listings: Iterable<Listing>, query: ListingFind, now: Date): ListingFindResult {
  const found: FoundListing[] = [];
  for (const listing of listings) {
    const rank = rankListing(listing, query, now);
    if (rank === null) continue;
    const key = sortKeyOf(listing, rank);
    if (query.after !== undefined && compareSortKeys(query.sort, key, query.after) <= 0) continue;
    found.push({ listing: copy(listing), rank });
  }
  const key = (row: FoundListing) => sortKeyOf(row.listing, row.rank);
  found.sort((a, b) => compareSortKeys(query.sort, key(a), key(b)));
  return found.slice(0, Math.max(0, query.limit));
}

/** ListingRepository.countByCategory over `listings`, exactly. */
export function countListingsByCategory(
  listings: Iterable<Listing>,
  query: FacetQuery,
  cap: number,
  now: Date,
): CategoryCounts {
  const counts: Partial<Record<Category, number>> = {};
  for (const listing of listings) {
    if (rankListing(listing, query, now) === null) continue;
    counts[listing.category] = (counts[listing.category] ?? 0) + 1;
  }
  let capped = false;
  for (const [category, count] of Object.entries(counts) as [Category, number][]) {
    if (count > cap) {
      counts[category] = cap;
      capped = true;
    }
  }
  return { counts, capped };
}
