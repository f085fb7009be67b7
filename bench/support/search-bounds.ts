/**
 * The bounded-search section of bench:storage, the same on both adapters
 * through the port: adversarial `search` terms (issue 27), `q` with common
 * words and words that never meet, price sorts, facets and deep cursors
 * (issue 31). `databaseTime`, where the adapter can tell it, adds the time
 * spent inside the database beside the caller's.
 */
import type { FacetQuery, ListingFind, ListingRepository, SortKey } from "@psm/core";
import { REPORTED_TERMS, seededRandom, trigramWalk } from "@psm/core/testing";
import { ms, type Timing, table, time } from "./timing.ts";

/** Words of a backend's seeded data: common ones, two that often meet, a rare one. */
export interface SeededWords {
  common: string;
  pair: [string, string];
  rare: string;
  /** Common words, eight of which no listing is likely to hold together. */
  many: string[];
}

/** What a backend lends the section. */
export interface BoundsTarget {
  listings: ListingRepository;
  now: Date;
  /** Titles of the seeded data, for trigram walks. */
  titles: string[];
  /** A listing about halfway down the newest-first order: the deep cursor. */
  middleId: string;
  words: SeededWords;
  /** Milliseconds inside the database for a search of `term`, where measurable. */
  databaseTime?: (term: string) => Promise<number>;
}

const repeat = (unit: string, length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** The adversarial shapes, labelled: common trigrams that never meet, long walks, repeated units. */
export function searchShapes(titles: readonly string[]): [label: string, term: string][] {
  const next = seededRandom(27);
  return [
    ...REPORTED_TERMS.map((term): [string, string] => ["reported shape", term]),
    ["trigram walk, 24 chars", trigramWalk(titles, 24, next)],
    ["trigram walk, 60 chars", trigramWalk(titles, 60, next)],
    ["trigram walk, 200 chars", trigramWalk(titles, 200, next)],
    ['"ing " repeated, 200 chars', repeat("ing ", 200)],
    ['"consulting " repeated, 200', repeat("consulting ", 200)],
    ['"a" repeated, 200 chars', repeat("a", 200)],
    ["common word twice", "consulting consulting"],
  ];
}

/** A row of the table: hits ("…" when short, with a cursor) and the timing. */
function row(label: string, hits: string, timing: Timing, extra: string[] = []): string[] {
  return [label, hits, ms(timing.median), ms(timing.p95), ms(timing.max), ...extra];
}

async function searchRows(target: BoundsTarget, runs: number): Promise<string[][]> {
  const { listings, now } = target;
  const rows: string[][] = [];
  for (const [label, term] of searchShapes(target.titles)) {
    const query = { status: "active", text: term, limit: 20 } as const;
    const answer = await listings.search(query, now);
    const hits = `${answer.length}${answer.resumeBefore === undefined ? "" : "…"}`;
    const timing = await time(() => listings.search(query, now), runs);
    const db = target.databaseTime ? [ms(await target.databaseTime(term))] : [];
    const shown = term.length > 26 ? `${term.slice(0, 24)}…` : term;
    rows.push(row(`${label} "${shown}"`, hits, timing, db));
  }
  // Every length from 1 to 200: a trigram walk each, the slowest reported.
  const next = seededRandom(200);
  let worst = { length: 0, timing: undefined as Timing | undefined };
  for (let length = 1; length <= 200; length++) {
    const query = { status: "active", text: trigramWalk(target.titles, length, next), limit: 20 } as const;
    const timing = await time(() => listings.search(query, now), 5, 1);
    if (!worst.timing || timing.median > worst.timing.median) worst = { length, timing };
  }
  if (worst.timing)
    rows.push(row(`slowest walk of lengths 1..200 (length ${worst.length})`, "", worst.timing));
  return rows;
}

function findCases(words: SeededWords, middleId: string): [string, Partial<ListingFind>][] {
  const middle: SortKey = { rank: 1, price: 2500, id: middleId };
  const [a, b] = words.pair;
  return [
    ["q one common word", { words: [words.common], sort: "relevance" }],
    ["q two common words", { words: [a, b], sort: "relevance" }],
    ["q two common words, newest", { words: [a, b], sort: "newest" }],
    ["q one common word, newest", { words: [words.common], sort: "newest" }],
    ["q rare word", { words: [words.rare], sort: "relevance" }],
    ["q last word a prefix (2 chars)", { words: ["se"], sort: "relevance" }],
    ["q eight common words (adversarial)", { words: words.many, sort: "relevance" }],
    ["q eight common words, newest", { words: words.many, sort: "newest" }],
    ["q eight common words, price_asc", { words: words.many, sort: "price_asc" }],
    ["q absent word", { words: ["qxzvw"], sort: "relevance" }],
    ["price_asc, no q", { sort: "price_asc" }],
    ["price_desc, price range", { sort: "price_desc", minPrice: 100, maxPrice: 200 }],
    ["price_asc, q common word", { words: [words.common], sort: "price_asc" }],
    ["newest, price range", { sort: "newest", minPrice: 100, maxPrice: 110 }],
    ["deep cursor: q common word, newest", { words: [words.common], sort: "newest", after: middle }],
    ["deep cursor: q two common words", { words: [a, b], sort: "newest", after: middle }],
    ["deep cursor: q common word, relevance 1", { words: [words.common], sort: "relevance", after: middle }],
    ["deep cursor: price_asc", { sort: "price_asc", after: middle }],
  ];
}

function facetCases(words: SeededWords): [string, FacetQuery][] {
  return [
    ["facets, no q", { status: "active" }],
    ["facets, q one common word", { status: "active", words: [words.common] }],
    ["facets, q two common words", { status: "active", words: [...words.pair] }],
    ["facets, q eight common words", { status: "active", words: words.many }],
    ["facets, q rare word", { status: "active", words: [words.rare] }],
  ];
}

async function findRows(target: BoundsTarget, runs: number): Promise<string[][]> {
  const { listings, now } = target;
  const rows: string[][] = [];
  for (const [label, extra] of findCases(target.words, target.middleId)) {
    const query: ListingFind = { status: "active", sort: "newest", limit: 21, ...extra };
    const answer = await listings.find(query, now);
    const hits = `${answer.length}${answer.resumeAfter === undefined ? "" : "…"}`;
    rows.push(row(label, hits, await time(() => listings.find(query, now), runs)));
  }
  for (const [label, query] of facetCases(target.words)) {
    const answer = await listings.countByCategory(query, 1000, now);
    const total = Object.values(answer.counts).reduce((sum, n) => sum + (n ?? 0), 0);
    const timing = await time(() => listings.countByCategory(query, 1000, now), Math.ceil(runs / 4));
    rows.push(row(label, `${total}${answer.capped ? " capped" : ""}`, timing));
  }
  return rows;
}

/** Measures and prints the section; returns its rows for the results file. */
export async function benchSearchBounds(
  target: BoundsTarget,
  runs = 100,
): Promise<Record<string, string[][]>> {
  const search = await searchRows(target, runs);
  console.log(
    "\nadversarial search terms (active, limit 20), through the port; … = short page with a cursor",
  );
  table(["term", "hits", "median", "p95", "max", ...(target.databaseTime ? ["database"] : [])], search);
  const find = await findRows(target, runs);
  console.log("\nfull-text search, price sorts, facets, deep cursors (active, limit 21), through the port");
  table(["case", "hits", "median", "p95", "max"], find);
  return { search, find };
}
