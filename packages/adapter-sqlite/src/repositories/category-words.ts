import type { Category } from "@psm/core";
import type { Database } from "better-sqlite3";
import { lazy } from "../lazy.js";
import type { CategoryWords } from "./find-words.js";
import { CATEGORY_SPAN, createFtsPlanner } from "./fts-plan.js";
import type { TermMemos } from "./fts-term-memo.js";
import type { CategoryTable } from "./listing-find-sql.js";

// A category's range of the indexes by category (0020_words-by-category.sql),
// by the keys their triggers use. DESIGN.md "Words by category".

/**
 * The words of a category for a find, with a planner per index kept for each
 * category; none where the indexes leave some of its rows out: a category
 * without a key, or a seq past the category's span (a listing id that is not
 * a UUIDv7 can be given one). Those finds read the indexes of every category.
 */
export function createCategoryWords(
  sqlite: Database,
  memos: TermMemos,
): (category: Category) => CategoryWords | undefined {
  const keys = lazy(
    () =>
      new Map(
        sqlite
          .prepare<[], { category: string; key: number }>("SELECT category, key FROM listing_category_keys")
          .all()
          .map(({ category, key }) => [category, BigInt(key) * CATEGORY_SPAN]),
      ),
  );
  const made = new Map<string, CategoryWords>();
  const maxSeq = sqlite
    .prepare<[], bigint | null>("SELECT max(seq) FROM listings")
    .pluck()
    .safeIntegers(true);
  return (category) => {
    const top = keys().get(category);
    if (top === undefined || (maxSeq.get() ?? 0n) >= CATEGORY_SPAN) return undefined;
    let found = made.get(category);
    if (!found) {
      const on = (table: CategoryTable) => createFtsPlanner(sqlite, table, memos.of(table), top);
      found = {
        planners: {
          listings_words_cat: on("listings_words_cat"),
          listings_title_cat: on("listings_title_cat"),
        },
        top,
      };
      made.set(category, found);
    }
    return found;
  };
}
