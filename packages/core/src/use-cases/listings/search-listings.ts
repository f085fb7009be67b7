import type { Deps } from "../../deps.js";
import { type Actor, isAdmin, isSelfOrAdmin } from "../../domain/actor.js";
import { FACET_CAP } from "../../domain/limits.js";
import type { Listing } from "../../domain/listing.js";
import { searchCriteria } from "../../domain/listing-criteria.js";
import { type ListingSort, sortKeyOf } from "../../domain/listing-sort.js";
import type { Page } from "../../domain/page.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import type { CategoryCounts, ListingFind } from "../../ports/listing-repository.js";
import { type ListingQueryInput, listingQuerySchema } from "../../schemas/listing-query.js";
import { decodeCursor, toSearchPage } from "../../support/cursor.js";
import { decodeSortCursor, encodeSortCursor } from "../../support/sort-cursor.js";
import { validate } from "../../support/validate.js";

/** A page of a listing search, with the counts per category when asked (`facets`). */
export interface ListingSearchPage extends Page<Listing> {
  facets?: { category: CategoryCounts };
}

/**
 * Searches listings. Anyone sees active, unexpired listings; other statuses
 * only for one's own listings (user_id = caller) or an admin. Newest first,
 * or by relevance when `q` has words, or as `sort` says. A search with only
 * 1.0.2's criteria takes 1.0.2's path (ListingRepository.search), unchanged.
 */
export async function searchListings(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  query: ListingQueryInput,
): Promise<ListingSearchPage> {
  const q = validate(listingQuerySchema, query);
  const userId = q.userId?.toLowerCase();
  if (q.status !== "active") {
    const allowed = userId === undefined ? isAdmin(actor) : isSelfOrAdmin(actor, userId);
    if (!allowed) {
      throw new MarketplaceError(
        "forbidden",
        "status other than active is only for your own listings (userId) or admins",
      );
    }
  }
  if (q.minPrice !== undefined && q.maxPrice !== undefined && q.minPrice > q.maxPrice) {
    throw invalidField("minPrice", "must not be above the maximum price");
  }
  const { status: _status, ...wanted } = searchCriteria(q);
  const words = wanted.words ?? [];
  // Without words every listing ranks alike: relevance is newest first.
  const sort: ListingSort =
    q.sort === undefined || (q.sort === "relevance" && words.length === 0)
      ? words.length > 0
        ? "relevance"
        : "newest"
      : q.sort;
  const now = deps.clock.now();
  // The criteria a saved search with the same parameters matches by (domain/listing-criteria.ts).
  const criteria = { ...wanted, userId, status: q.status };
  const extended =
    words.length > 0 || q.minPrice !== undefined || q.maxPrice !== undefined || sort !== "newest";
  const page = extended
    ? await findPage(deps, { ...criteria, sort, limit: q.limit }, q.cursor, now)
    : await searchPage(deps, { ...criteria, limit: q.limit }, q.cursor, now);
  if (q.facets !== "category") return page;
  const { category: _, ...facetQuery } = criteria;
  const counts = await deps.repos.listings.countByCategory(facetQuery, FACET_CAP, now);
  return { ...page, facets: { category: counts } };
}

/** 1.0.2's search: newest first, id cursors. */
async function searchPage(
  deps: Pick<Deps, "repos">,
  criteria: Omit<ListingFind, "sort" | "after">,
  cursor: string | undefined,
  now: Date,
): Promise<Page<Listing>> {
  const before = decodeCursor(cursor);
  const rows = await deps.repos.listings.search({ ...criteria, limit: criteria.limit + 1, before }, now);
  return toSearchPage(rows, criteria.limit, before);
}

/** 1.3.0's search: any sort, cursors holding the sort key. */
async function findPage(
  deps: Pick<Deps, "repos">,
  query: Omit<ListingFind, "after">,
  cursor: string | undefined,
  now: Date,
): Promise<Page<Listing>> {
  const after = decodeSortCursor(query.sort, cursor);
  const rows = await deps.repos.listings.find({ ...query, after, limit: query.limit + 1 }, now);
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  if (rows.length > query.limit && last) {
    return {
      items: items.map((row) => row.listing),
      nextCursor: encodeSortCursor(query.sort, sortKeyOf(last.listing, last.rank)),
    };
  }
  const resume = rows.resumeAfter;
  return {
    items: items.map((row) => row.listing),
    nextCursor: resume === undefined ? null : encodeSortCursor(query.sort, resume),
  };
}
