import { type Category, everyWordHeld } from "@psm/core";
import type { FtsPlanner } from "./fts-plan.js";
import type { CategoryTable, WordTable } from "./listing-find-sql.js";
import type { FtsQuery } from "./words-query.js";

// How a find reads its words: one FTS5 query streamed, or, for several words
// whose rarest has more entries than the budget, cut streams that meet in SQL
// so that no row lacking a word is read (DESIGN.md "Bounded inside the match").

/** A row a walk examined; title and description only when the words are checked in JS. */
export interface Examined {
  id: string;
  price: number | null;
  category: Category;
  hit: number | null;
  /** 1 when the row holds the last word as a whole stem (listing-find-sql.ts SURE): no check needed. */
  sure?: number;
  title?: string;
  description?: string;
}

/** Which rows a walk keeps beyond its SQL `hit`: those of a relevance rank, or any match. */
export type Check = ((row: Examined) => boolean) | undefined;

/**
 * One FTS5 query streamed, each of its entries a row examined, and the check
 * of each row in JS; `sure`, where the check is only of the last word's
 * prefix, the FTS5 query of rows that need none (FtsQuery.sure).
 */
export type StreamSource = {
  kind: "stream";
  table: WordTable;
  match: string;
  check: Check;
  sure?: string;
  /** On an index by category: the category's range, (from, top] (the cursor included in `from`). */
  range?: { from: bigint; top: bigint };
};

/**
 * Where a find's words are read: `stream`, one FTS5 query; `meet`, the
 * words' streams (`terms`, sparsest first) meeting in SQL below `from`, each
 * cut, the rows examined only those in every stream, or `whole`, the exact
 * query, when the sparsest ends within its cut (the AND then steps no further).
 */
export type WordSource =
  | StreamSource
  | {
      kind: "meet";
      table: WordTable;
      /** The planner of `table` (of the category's range on an index by category). */
      planner: FtsPlanner;
      terms: string[];
      from: bigint;
      check: Check;
      whole: StreamSource;
      sure?: string;
      /** On an index by category: the top of the category's range (`from` is within it). */
      top?: bigint;
    };

/** A source of cut streams that meet. */
export type MeetSource = Extract<WordSource, { kind: "meet" }>;

/** Which rows a source answers: relevance rank 0 (every word in the title), rank 1, or any match. */
export type Tier = 0 | 1 | "any";

/** A planner for each word index: rank 0 reads titles alone, the others titles and descriptions. */
export type WordPlanners = Readonly<Record<Exclude<WordTable, CategoryTable>, FtsPlanner>>;

/** One category's range of the indexes by category: a planner on each, and the top of its rowids (key * 2^59). */
export interface CategoryWords {
  planners: Readonly<Record<CategoryTable, FtsPlanner>>;
  top: bigint;
}

/**
 * False when no row can match `text`: no indexed term begins with what its
 * last word matches (FtsPlanner.beginsAny), asked only where the index's
 * shorter prefix would be walked with each row checked in JS.
 */
export function matchable(planner: FtsPlanner, text: FtsQuery | undefined): boolean {
  const last = text?.last;
  if (last === undefined) return true;
  return [...last.prefixes, ...last.completions].some((term) => planner.beginsAny(term));
}

/**
 * The JS check of rows for `words` (rank 0 or 1 only, or any match): core's relevanceRank, read
 * word by word and stopped once every word is held (everyWordHeld).
 */
export function checkOf(words: readonly string[], tier: Tier): Check {
  const held = everyWordHeld(words);
  // Rank 0 needs the title alone: no description read.
  if (tier === 0) return (row) => held([row.title ?? ""]);
  if (tier === "any") return (row) => held([row.title ?? "", row.description ?? ""]);
  return (row) => !held([row.title ?? ""]) && held([row.title ?? "", row.description ?? ""]);
}

/**
 * The source of `tier` for `text`'s words below cursor id `before`. One word
 * is one stream. Several are streams that meet, cut: an FTS5 AND of common
 * words that never meet would step through their whole doclists and yield
 * nothing to count. With `category`, the words are read in that category's
 * range of the indexes by category: rows of other categories are never read
 * (DESIGN.md "Words by category").
 */
export function sourceOf(
  planners: WordPlanners,
  text: FtsQuery,
  words: readonly string[],
  tier: Tier,
  before: string | undefined,
  category?: CategoryWords,
): WordSource {
  const plain = tier === 0 ? "listings_title" : "listings_text";
  const table: WordTable = !category ? plain : tier === 0 ? "listings_title_cat" : "listings_words_cat";
  const planner = category ? category.planners[table as CategoryTable] : planners[plain];
  // Rows holding every word; rank 1 is those whose title does not (an index by category has no columns to ask).
  let held: ReturnType<typeof everyWordHeld> | undefined;
  const notAllInTitle = (row: Examined) => {
    held ??= everyWordHeld(words);
    return !held([row.title ?? ""]);
  };
  const whole: StreamSource = {
    kind: "stream",
    table,
    // Rank 0 is every word on the index of titles alone: the same query as any match.
    match: tier === 1 && !category ? text.rest : text.all,
    check: !text.exact ? checkOf(words, tier) : category && tier === 1 ? notAllInTitle : undefined,
  };
  // Any match: the check is of the last word alone, which rows holding its whole stem pass.
  if (tier === "any" && text.sure !== undefined && !category) whole.sure = text.sure;
  const from = text.terms.length < 2 && !category ? undefined : planner.from(before);
  if (category && from !== undefined) whole.range = { from, top: category.top };
  if (text.terms.length < 2 || from === undefined) return whole;
  const terms = planner.rank(text.terms, from);
  const check = text.exact && tier === 1 ? notAllInTitle : whole.check;
  const meet: WordSource = { kind: "meet", table, planner, terms, from, check, whole };
  if (whole.sure !== undefined) meet.sure = whole.sure;
  if (category) meet.top = category.top;
  return meet;
}
