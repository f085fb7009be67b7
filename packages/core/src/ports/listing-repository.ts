import type { Category } from "../domain/category.js";
import type { NewEvent } from "../domain/event.js";
import type { Listing, ListingChanges, ListingStatusFilter } from "../domain/listing.js";
import type { ListingCriteria } from "../domain/listing-criteria.js";
import type { ListingSort, SortKey } from "../domain/listing-sort.js";
import type { PageQuery } from "../domain/page.js";

/** A listing search. Results are id descending (newest first). */
export interface ListingSearch extends PageQuery {
  category?: Category | undefined;
  /** Case-insensitive (all letters, not only ASCII) substring of the title; `%`, `_`, `\` literal. */
  text?: string | undefined;
  userId?: string | undefined;
  /** `active` means active and unexpired at `now`; `expired` means stored active with expires_at <= now. */
  status: ListingStatusFilter;
}

/**
 * A search's listings. `resumeBefore`, when set, says the storage stopped short
 * to bound its work: the listings are every match with an id in
 * [resumeBefore, before), and the search goes on below `resumeBefore` (which
 * is below `before`), though fewer than `limit` were found. An adapter whose
 * searches are bounded anyway never sets it.
 */
export type ListingSearchResult = Listing[] & { resumeBefore?: string };

/**
 * A search with 1.3.0's criteria (`listings.find`): every ListingSearch filter
 * plus full-text words, a price range and a sort, paged by sort key.
 */
export interface ListingFind extends ListingCriteria {
  /** `relevance` only with words. */
  sort: ListingSort;
  /** Only listings after this key in the sort (core's compareSortKeys). */
  after?: SortKey | undefined;
  limit: number;
}

/** A found listing and its relevance rank (core's relevanceRank; 0 without words). */
export interface FoundListing {
  listing: Listing;
  rank: number;
}

/**
 * A find's listings in sort order. `resumeAfter`, when set, says the storage
 * stopped short to bound its work: the listings are every match between
 * `after` and `resumeAfter`, and the search goes on after `resumeAfter`.
 */
export type ListingFindResult = FoundListing[] & { resumeAfter?: SortKey };

/** The criteria facets are counted over: a find's, less its paging, sort and category. */
export type FacetQuery = Omit<ListingFind, "sort" | "after" | "limit" | "category">;

/**
 * Matches per category, each at most `cap`. `capped` when some count was cut
 * at the cap, or the storage stopped counting at its bound on work (then a
 * count may be lower than the whole match set's).
 */
export interface CategoryCounts {
  counts: Partial<Record<Category, number>>;
  capped: boolean;
}

/** Bounds an insert or reactivation by the author's slots, counted at `now`. */
export interface SlotGuard {
  maxSlots: number;
  now: Date;
}

/** Storage of listings. Missing rows give null/false, never a throw. */
export interface ListingRepository {
  findById(id: string): Promise<Listing | null>;
  /**
   * The listings with these ids, in any order, in one step however many ids: what a round that
   * reads a batch of listings needs, without a read per listing. Unknown ids are left out.
   */
  findByIds(ids: readonly string[]): Promise<Listing[]>;
  /**
   * At most `limit` listings matching the search, id descending, only ids below
   * `before`: all of them down to `resumeBefore` when that is set, else the
   * first `limit`, or every one when fewer.
   */
  search(query: ListingSearch, now: Date): Promise<ListingSearchResult>;
  /**
   * At most `limit` listings matching `query`, in its sort, after `query.after`:
   * all of them up to `resumeAfter` when that is set, else the first `limit`.
   */
  find(query: ListingFind, now: Date): Promise<ListingFindResult>;
  /** Matches of `query` per category, each count at most `cap` (see CategoryCounts). */
  countByCategory(query: FacetQuery, cap: number, now: Date): Promise<CategoryCounts>;
  /** Every listing whatever its status (admin), id descending. */
  listAll(page: PageQuery): Promise<Listing[]>;
  /**
   * Atomically: counts the author's active, unexpired listings at `guard.now`
   * and inserts only if that count is below `guard.maxSlots`. False when full.
   * Concurrent calls never exceed the limit. `events` are written with the
   * listing, in its transaction, and only when it is inserted.
   */
  insertWithinSlots(listing: Listing, guard: SlotGuard, events?: readonly NewEvent[]): Promise<boolean>;
  /**
   * Applies changes and answers the listing as stored. Whether they make the
   * listing active and unexpired at `guard.now` while it was not (a status, or
   * an expires_at moved into the future) is decided on the row as it is at the
   * write, in one atomic step with the author's count and the write itself:
   * "limit_reached" (nothing written) when that count is already
   * `guard.maxSlots`. Concurrent updates and inserts of one author never exceed
   * the limit. Null when the listing does not exist. `events` are written in
   * the same transaction, only when the listing was updated.
   */
  update(
    id: string,
    changes: ListingChanges,
    guard: SlotGuard,
    events?: readonly NewEvent[],
  ): Promise<Listing | null | "limit_reached">;
  /** False when it did not exist. `events` are written in its transaction, only when it was deleted. */
  delete(id: string, events?: readonly NewEvent[]): Promise<boolean>;
  /** Atomic +1; N concurrent calls add exactly N. False when it did not exist. */
  incrementViews(id: string): Promise<boolean>;
  /** The author's active, unexpired listings at `now`. */
  countActiveByUser(userId: string, now: Date): Promise<number>;
  /** The same for several authors at once; users with none are absent or 0. */
  countActiveByUsers(userIds: readonly string[], now: Date): Promise<Map<string, number>>;
}
