import type { Category } from "../../domain/category.js";
import { compareSortKeys, type SortKey, sortKeyOf } from "../../domain/listing-sort.js";
import type { FoundListing, ListingFind } from "../../ports/listing-repository.js";
import type { Repositories } from "../../ports/repositories.js";

/** A find's criteria with defaults: active listings, newest first, 100 a page. */
export type FindCriteria = Partial<ListingFind>;

/** The full query of `criteria`. */
export function findQuery(criteria: FindCriteria): ListingFind {
  return { status: "active", sort: "newest", limit: 100, ...criteria };
}

/**
 * Every page of a find, following each page's last key (or its resumeAfter)
 * as a caller's cursor would; throws when a page does not move forward, so a
 * cursor loop fails the case instead of hanging it.
 */
export async function findAllPages(
  repos: Repositories,
  criteria: FindCriteria,
  now: Date,
): Promise<{ rows: FoundListing[]; pages: number }> {
  const query = findQuery(criteria);
  const rows: FoundListing[] = [];
  let after: SortKey | undefined = query.after;
  for (let pages = 1; pages <= 1000; pages++) {
    const page = await repos.listings.find({ ...query, after }, now);
    rows.push(...page);
    const last = page.at(-1);
    const next = page.length >= query.limit && last ? sortKeyOf(last.listing, last.rank) : page.resumeAfter;
    if (next === undefined) return { rows, pages };
    if (after !== undefined && compareSortKeys(query.sort, next, after) <= 0) {
      throw new Error(`page ${pages} did not move past its cursor`);
    }
    after = next;
  }
  throw new Error("more than 1000 pages");
}

/** Titles of found rows, in order. */
export function foundTitles(rows: readonly FoundListing[]): string[] {
  return rows.map((row) => row.listing.title);
}

/** Counts as a plain object, for comparing. */
export function countsOf(counts: Partial<Record<Category, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}
