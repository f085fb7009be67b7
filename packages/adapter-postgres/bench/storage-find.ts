/** Full-text search (q), price sorts, facets and deep cursors of the storage benchmark. */
import type { FacetQuery, ListingFind, Storage } from "@psm/core";
import type { Connection } from "../src/connection.js";
import { cell, latency, ms } from "./measure.js";
import { TERMS } from "./seed.js";

type Case = [label: string, query: Partial<ListingFind>];

function cases(middleId: string): Case[] {
  const middle = { rank: 1, price: 5000, id: middleId };
  return [
    ["q one common word", { words: ["consulting"], sort: "relevance" }],
    ["q two common words", { words: ["consulting", "retail"], sort: "relevance" }],
    ["q one common word, newest", { words: ["consulting"], sort: "newest" }],
    ["q description-only word", { words: ["offer"], sort: "relevance" }],
    ["q rare word", { words: [TERMS.rare], sort: "relevance" }],
    ["q last word a prefix (2 chars)", { words: ["se"], sort: "relevance" }],
    ["q absent word", { words: ["zzyzx"], sort: "relevance" }],
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
  ["facets, q two common words", { status: "active", words: ["consulting", "retail"] }],
  ["facets, q rare word", { status: "active", words: [TERMS.rare] }],
];

/** Times each find and facet case through the port (client time, search budget included), and prints them. */
export async function benchFind(storage: Storage, connection: Connection, size: number): Promise<void> {
  const { listings } = storage.repositories;
  const now = new Date();
  const [middle] = await connection.sql<{ id: string }[]>`select id from listings where status = 'active'
    order by id desc offset ${Math.floor(size * 0.5)} limit 1`;
  console.log(
    `\n${cell("full-text search, price sorts, facets (limit 21)", 48)}${cell("hits", 14)}median      p95`,
  );
  for (const [label, extra] of cases(middle?.id ?? "")) {
    const query: ListingFind = { status: "active", sort: "newest", limit: 21, ...extra };
    const answer = await listings.find(query, now);
    // "…": a short page, answered from the slice after the budget, with a point to resume from.
    const hits = `${answer.length}${answer.resumeAfter === undefined ? "" : "…"}`;
    const figures = await latency(() => listings.find(query, now), 100);
    console.log(`${cell(label, 48)}${cell(hits, 14)}${cell(ms(figures.median), 12)}${ms(figures.p95)}`);
  }
  for (const [label, query] of FACETS) {
    const answer = await listings.countByCategory(query, 1000, now);
    const total = Object.values(answer.counts).reduce((sum, n) => sum + (n ?? 0), 0);
    const figures = await latency(() => listings.countByCategory(query, 1000, now), 30);
    console.log(
      `${cell(label, 48)}${cell(`${total}${answer.capped ? " capped" : ""}`, 14)}${cell(ms(figures.median), 12)}${ms(figures.p95)}`,
    );
  }
}
