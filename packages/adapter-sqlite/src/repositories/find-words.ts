import { type Category, holdsEveryWord, relevanceRank, stemsOf } from "@psm/core";
import type { FtsPlanner } from "./fts-plan.js";
import type { FtsQuery } from "./listing-find-sql.js";

// How a find reads its words: one FTS5 query streamed, or, for several words
// whose rarest has more entries than the budget, cut streams that meet in SQL
// so that no row lacking a word is read (DESIGN.md "Bounded inside the match").

/** A row a walk examined; title and description only when the words are checked in JS. */
export interface Examined {
  id: string;
  price: number | null;
  category: Category;
  hit: number | null;
  title?: string;
  description?: string;
}

/** Which rows a walk keeps beyond its SQL `hit`: those of a relevance rank, or any match. */
export type Check = ((row: Examined) => boolean) | undefined;

/**
 * Where a find's words are read: `stream`, one FTS5 query whose every entry
 * is a row examined; `meet`, the words' streams (rarest first) meeting in SQL
 * below `from`, each cut, the rows examined those that hold every stream.
 */
export type WordSource =
  | { kind: "stream"; match: string; check: Check }
  | { kind: "meet"; terms: string[]; from: bigint; check: Check };

/** Which rows a source answers: relevance rank 0 (every word in the title), rank 1, or any match. */
export type Tier = 0 | 1 | "any";

/** The JS check of rows for `words` (rank 0 or 1 only, or any match). */
export function checkOf(words: readonly string[], tier: Tier): Check {
  // Rank 0 needs the title alone: no description stemmed.
  if (tier === 0) return (row) => holdsEveryWord(stemsOf(row.title ?? ""), words);
  return (row) => {
    const found = relevanceRank({ title: row.title ?? "", description: row.description ?? "" }, words);
    return tier === "any" ? found !== null : found === tier;
  };
}

/**
 * The source of `tier` for `text`'s words below cursor id `before`, planned
 * for `budget` rows. One word is one stream. Several are an FTS5 AND when
 * the rarest has fewer than `budget` entries there (the AND then steps no
 * further than it), else cut streams that meet: an AND of common words that
 * never meet would step through their whole doclists and yield nothing to count.
 */
export function sourceOf(
  planner: FtsPlanner,
  text: FtsQuery,
  words: readonly string[],
  tier: Tier,
  before: string | undefined,
  budget: number,
): WordSource {
  const exact = tier === 0 ? text.title : tier === 1 ? text.rest : text.all;
  const stream: WordSource = { kind: "stream", match: exact, check: text.exact ? undefined : checkOf(words, tier) };
  if (text.terms.length < 2) return stream;
  const from = planner.from(before);
  const plan = planner.plan(tier === 0 ? text.titleTerms : text.terms, from, budget);
  if (plan.kind === "all") return stream;
  // Rows where every word's stream meets hold every word; rank 1 is those whose title does not.
  const check =
    text.exact && tier === 1
      ? (row: Examined) => !holdsEveryWord(stemsOf(row.title ?? ""), words)
      : stream.check;
  return { kind: "meet", terms: plan.terms, from, check };
}
