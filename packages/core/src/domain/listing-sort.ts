/** The orders of a listing search. */
export const LISTING_SORTS = ["newest", "relevance", "price_asc", "price_desc"] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

/**
 * Where a listing stands in a sort: `rank` (relevance: 0 when the title alone
 * holds every word, 1 when the description is needed), `price`, `id`.
 */
export interface SortKey {
  rank: number;
  price: number | null;
  id: string;
}

const byIdDesc = (a: SortKey, b: SortKey) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const byIdAsc = (a: SortKey, b: SortKey) => -byIdDesc(a, b);
/** Listings with a price come first in both price sorts; those without follow. */
const pricedFirst = (a: SortKey, b: SortKey) => (a.price === null ? 1 : 0) - (b.price === null ? 1 : 0);
const priceOf = (key: SortKey) => key.price ?? 0;

/**
 * The order of each sort, as a comparator (negative: `a` comes first):
 * - newest: id descending;
 * - relevance: rank, then newest first;
 * - price_asc: price ascending, ties oldest first (id ascending), no price last;
 * - price_desc: price descending, ties newest first (id descending), no price last.
 * Each price sort is the other reversed, so one index (price, id) serves both.
 */
export function compareSortKeys(sort: ListingSort, a: SortKey, b: SortKey): number {
  switch (sort) {
    case "newest":
      return byIdDesc(a, b);
    case "relevance":
      return a.rank - b.rank || byIdDesc(a, b);
    case "price_asc":
      return pricedFirst(a, b) || priceOf(a) - priceOf(b) || byIdAsc(a, b);
    case "price_desc":
      return pricedFirst(a, b) || priceOf(b) - priceOf(a) || byIdDesc(a, b);
  }
}

/** A listing's key in a sort, given its rank (0 outside relevance). */
export function sortKeyOf(listing: { id: string; price: number | null }, rank = 0): SortKey {
  return { rank, price: listing.price, id: listing.id };
}
