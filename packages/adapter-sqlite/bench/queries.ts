/** Search and page timings of the storage benchmark. */
import type { ListingRepository } from "@psm/core";
import type { Database } from "better-sqlite3";
import { ms, type Timing, table, time } from "./measure.ts";
import { MEDIUM_TERM, RARE_TERM } from "./seed.ts";

const TERMS: [label: string, term: string][] = [
  ["rare (3+ chars)", RARE_TERM],
  ["medium (3+ chars, ~0.2% of titles)", MEDIUM_TERM],
  ["common (3+ chars)", "consulting"],
  ["absent (3+ chars)", "qxzvw"],
  ["two words (3+ chars)", "software development"],
  ["2 chars, common", "ai"],
  ["2 chars, absent (worst case)", "qz"],
  // Their trigrams are in most titles and the phrase in none: bounded by the search budget.
  ["common trigrams, phrase in no title", "ing ing"],
  ["three common trigrams, phrase in no title", "ting ting"],
];

function naiveSearch(sqlite: Database, term: string, now: number): () => unknown {
  // What a schema without the FTS index does: scan every row, then sort.
  const statement = sqlite.prepare(
    `SELECT * FROM listings NOT INDEXED WHERE status = 'active' AND (expires_at IS NULL OR expires_at > ?)
     AND title LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT 20`,
  );
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return () => statement.all(now, pattern);
}

/** Times each search term beside the naive scan, and prints the table. */
export async function measureSearch(
  listings: ListingRepository,
  sqlite: Database,
  now: Date,
  naiveRuns: number,
): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  const rows: string[][] = [];
  for (const [label, term] of TERMS) {
    const query = { text: term, status: "active", limit: 20 } as const;
    const ours = await time(() => listings.search(query, now), 300);
    const answer = await listings.search(query, now);
    // "…": a short page, stopped at the search budget, with a next cursor.
    const hits = `${answer.length}${answer.resumeBefore === undefined ? "" : "…"}`;
    const naive = await time(naiveSearch(sqlite, term, now.getTime()), naiveRuns, 1);
    const speedUp = `${(naive.median / ours.median).toFixed(0)}x`;
    rows.push([label, JSON.stringify(term), hits, ms(ours.median), ms(ours.p95), ms(naive.median), speedUp]);
    results[`search ${term}`] = { ours, naive, hits };
  }
  console.log("\nsearch (active, newest first, limit 20), through the port");
  table(["term", "text", "hits", "median", "p95", "naive LIKE median", "speed-up"], rows);
  return results;
}

/** Times the page queries and prints the table. */
export async function measurePages(
  listings: ListingRepository,
  now: Date,
  userId: string,
  middleId: string | undefined,
): Promise<Record<string, Timing>> {
  const firstPage = await listings.search({ status: "active", text: "consulting", limit: 20 }, now);
  const page2 = firstPage.at(-1)?.id;
  const pages: [string, () => unknown][] = [
    ["default page", () => listings.search({ status: "active", limit: 20 }, now)],
    [
      "default page, cursor mid-table",
      () => listings.search({ status: "active", limit: 20, before: middleId }, now),
    ],
    [
      "category page",
      () => listings.search({ status: "active", category: "data-analytics", limit: 20 }, now),
    ],
    ["author page (all statuses)", () => listings.search({ status: "all", userId, limit: 20 }, now)],
    ["admin list", () => listings.listAll({ limit: 20 })],
    [
      "search page 2 (common term)",
      () => listings.search({ status: "active", text: "consulting", before: page2, limit: 20 }, now),
    ],
    [
      "search, cursor mid-table (common term)",
      () => listings.search({ status: "active", text: "consulting", before: middleId, limit: 20 }, now),
    ],
  ];
  const results: Record<string, Timing> = {};
  const rows: string[][] = [];
  for (const [label, step] of pages) {
    const timing = await time(step, 500);
    rows.push([label, ms(timing.median), ms(timing.p95), String(timing.runs)]);
    results[label] = timing;
  }
  console.log("\npage queries (limit 20), through the port");
  table(["query", "median", "p95", "runs"], rows);
  return results;
}
