import type { Category } from "./category.js";
import { type ListingText, listingText, relevanceRank, searchWords } from "./full-text.js";
import { effectiveStatus, type Listing, type ListingStatusFilter } from "./listing.js";
import { foldSearchText } from "./search-text.js";

/**
 * What a listing search filters on, as storage receives it: the one shape GET /api/listings and a
 * saved search both reduce to (searchCriteria), and the one predicate over it (rankListing) that
 * the in-memory storage searches with and saved searches match with. The SQL storages are held to
 * the same predicate by the repository contract.
 */
export interface ListingCriteria {
  category?: Category | undefined;
  /** A substring of the folded title (foldSearchText). */
  text?: string | undefined;
  /**
   * Full-text words (core's searchWords, 1..QUERY_MAX_WORDS of them): every one must be held by the
   * title or the description, as core's holdsEveryWord defines it (stems; the last word also as a
   * prefix).
   */
  words?: readonly string[] | undefined;
  /** Inclusive bounds; either one leaves out listings without a price. */
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  userId?: string | undefined;
  status: ListingStatusFilter;
}

/** A search's parameters as a caller gives them (already validated). */
export interface SearchParameters {
  q?: string | null | undefined;
  search?: string | null | undefined;
  category?: Category | "all" | null | undefined;
  minPrice?: number | null | undefined;
  maxPrice?: number | null | undefined;
}

/**
 * The criteria of `parameters` among active listings: a blank `search` and a `q` without words
 * filter nothing, and `category` "all" is no category, exactly as GET /api/listings reads them.
 */
export function searchCriteria(parameters: SearchParameters): ListingCriteria {
  const { q, search, category, minPrice, maxPrice } = parameters;
  const words = q == null ? [] : searchWords(q);
  return {
    category: category == null || category === "all" ? undefined : category,
    text: search != null && search.trim() !== "" ? search : undefined,
    words: words.length > 0 ? words : undefined,
    minPrice: minPrice ?? undefined,
    maxPrice: maxPrice ?? undefined,
    status: "active",
  };
}

/** A listing made ready to be checked against many criteria: its folded title and text, each worked out once. */
export interface PreparedListing {
  foldedTitle(): string;
  text: ListingText;
}

/** The PreparedListing of `listing` (lazy: a part no criterion needs is never worked out). */
export function prepareListing(listing: Listing): PreparedListing {
  let folded: string | undefined;
  return {
    foldedTitle() {
      folded ??= foldSearchText(listing.title);
      return folded;
    },
    text: listingText(listing),
  };
}

/**
 * The rank of `listing` under `criteria` at `now` (0 without words: core's relevanceRank), null
 * when it does not match. `prepared`, when given, is prepareListing(listing), reused.
 */
export function rankListing(
  listing: Listing,
  criteria: ListingCriteria,
  now: Date,
  prepared: PreparedListing = prepareListing(listing),
): 0 | 1 | null {
  if (criteria.status !== "all" && effectiveStatus(listing, now) !== criteria.status) return null;
  if (criteria.category !== undefined && listing.category !== criteria.category) return null;
  if (criteria.userId !== undefined && listing.userId !== criteria.userId) return null;
  if (criteria.text !== undefined && !prepared.foldedTitle().includes(foldSearchText(criteria.text)))
    return null;
  if (criteria.minPrice !== undefined || criteria.maxPrice !== undefined) {
    if (listing.price === null) return null;
    if (criteria.minPrice !== undefined && listing.price < criteria.minPrice) return null;
    if (criteria.maxPrice !== undefined && listing.price > criteria.maxPrice) return null;
  }
  if (criteria.words === undefined || criteria.words.length === 0) return 0;
  return relevanceRank(prepared.text, criteria.words);
}
