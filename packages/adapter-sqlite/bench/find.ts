/** Full-text search (q), price sorts, facets and deep cursors of the storage benchmark. */
import type { FacetQuery, ListingFind, ListingRepository } from "@psm/core";
import { ms, type Timing, table, time } from "./measure.ts";
import { RARE_TERM } from "./seed.ts";

type Case = [label: string, query: Partial<ListingFind>];

/** The find cases; `middleId` is a listing about halfway down the newest-first order. */
function cases(middleId: string): Case[] {
  const middle = { rank: 1, price: 2500, id: middleId };
  return [
    ["q one common word", { words: ["consulting"], sort: "relevance" }],
    ["q two common words", { words: ["software", "development"], sort: "relevance" }],
    ["q one common word, newest", { words: ["consulting"], sort: "newest" }],
    ["q rare word", { words: [RARE_TERM], sort: "relevance" }],
    ["q last word a prefix (2 chars)", { words: ["se"], sort: "relevance" }],
    ["q rare pair of common words", { words: ["gdpr", "kubernetes", "payroll"], sort: "relevance" }],
    ["q absent word", { words: ["qxzvw"], sort: "relevance" }],
    ["price_asc, no q", { sort: "price_asc" }],
    ["price_desc, price range", { sort: "price_desc", minPrice: 100, maxPrice: 200 }],
    ["price_asc, q common word", { words: ["consulting"], sort: "price_asc" }],
    ["newest, price range", { sort: "newest", minPrice: 100, maxPrice: 110 }],
    ["deep cursor: q common word, newest", { words: ["consulting"], sort: "newest", after: middle }],
    [
      "deep cursor: q common word, relevance rank 1",
      { words: ["consulting"], sort: "relevance", after: middle },
    ],
    ["deep cursor: price_asc", { sort: "price_asc", after: middle }],
  ];
}

const FACETS: [string, FacetQuery][] = [
  ["facets, no q", { status: "active" }],
  ["facets, q one common word", { status: "active", words: ["consulting"] }],
  ["facets, q two common words", { status: "active", words: ["software", "development"] }],
  ["facets, q rare word", { status: "active", words: [RARE_TERM] }],
];

/** Times each find and facet case through the port, and prints the table. */
export async function measureFind(
  listings: ListingRepository,
  now: Date,
  middleId: string,
): Promise<Record<string, Timing>> {
  const results: Record<string, Timing> = {};
  const rows: string[][] = [];
  for (const [label, extra] of cases(middleId)) {
    const query: ListingFind = { status: "active", sort: "newest", limit: 21, ...extra };
    const answer = await listings.find(query, now);
    // "…": a short page, stopped at the budget, with a point to resume from.
    const hits = `${answer.length}${answer.resumeAfter === undefined ? "" : "…"}`;
    const timing = await time(() => listings.find(query, now), 200);
    rows.push([label, hits, ms(timing.median), ms(timing.p95)]);
    results[label] = timing;
  }
  for (const [label, query] of FACETS) {
    const answer = await listings.countByCategory(query, 1000, now);
    const total = Object.values(answer.counts).reduce((sum, n) => sum + (n ?? 0), 0);
    const timing = await time(() => listings.countByCategory(query, 1000, now), 50);
    rows.push([label, `${total}${answer.capped ? " capped" : ""}`, ms(timing.median), ms(timing.p95)]);
    results[label] = timing;
  }
  console.log("\nfull-text search, price sorts and facets (active, limit 21), through the port");
  table(["case", "hits", "median", "p95"], rows);
  return results;
}
