import type { Category } from "../../domain/category.js";
import { relevanceRank } from "../../domain/full-text.js";
import { effectiveStatus, type Listing } from "../../domain/listing.js";
import { compareSortKeys, sortKeyOf } from "../../domain/listing-sort.js";
import { foldSearchText } from "../../domain/search-text.js";
import type {
  CategoryCounts,
  FacetQuery,
  FoundListing,
  ListingFind,
  ListingFindResult,
} from "../../ports/listing-repository.js";
import { copy } from "./state.js";

/** The rank of `listing` under `query`'s criteria (0 without words), null when it does not match. */
function rankOf(listing: Listing, query: FacetQuery & { category?: Category | undefined }, now: Date) {
  if (query.status !== "all" && effectiveStatus(listing, now) !== query.status) return null;
  if (query.category !== undefined && listing.category !== query.category) return null;
  if (query.userId !== undefined && listing.userId !== query.userId) return null;
  if (query.text !== undefined && !foldSearchText(listing.title).includes(foldSearchText(query.text)))
    return null;
  if (query.minPrice !== undefined || query.maxPrice !== undefined) {
    if (listing.price === null) return null;
    if (query.minPrice !== undefined && listing.price < query.minPrice) return null;
    if (query.maxPrice !== undefined && listing.price > query.maxPrice) return null;
  }
  if (query.words === undefined || query.words.length === 0) return 0;
  return relevanceRank(listing, query.words);
}

/** ListingRepository.find over `listings`, exactly, with no bound on its work (the reference). */
export function findListings(listings: Iterable<Listing>, query: ListingFind, now: Date): ListingFindResult {
  const found: FoundListing[] = [];
  for (const listing of listings) {
    const rank = rankOf(listing, query, now);
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
    if (rankOf(listing, query, now) === null) continue;
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
