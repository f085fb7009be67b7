import type { Listing } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { countingStatements } from "../test-support/counting.js";
import { allPages } from "../test-support/find-pages.js";
import { migratedConnection, removeTempDbs } from "../test-support/temp-db.js";
import { createFindRunner, type FindRunner } from "./listing-find.js";
import { createListingWriter } from "./listing-order.js";
import { createSearchRunner, type SearchRunner } from "./listing-search.js";

// Searches keep their terms' planning answers while the index is unchanged
// (fts-term-memo.ts). A kept answer read before a write would put a meet's
// cut point past entries it never read, and a page would skip them: every
// search here pages with a budget small enough that every page is cut.

const NOW = new Date("2026-03-01T12:00:00.000Z");
const author = buildUser({ createdAt: NOW });
let sqlite: Database;
let made = 0;
const stored: Listing[] = [];

/** A third of the listings hold "alpha beta", the others one of the words: meets come up short. */
const MIXED = Array.from(
  { length: 60 },
  (_, i) => ["Alpha beta", "Alpha gamma", "Delta beta"][i % 3] as string,
);
/**
 * Matches, then newer listings with one word each: a search's first page now
 * meets nothing within its cut, and goes on from where its streams stopped.
 */
const MATCHES_BURIED = [
  ...Array(3).fill("Alpha beta"),
  ...Array(3).fill(["Alpha gamma", "Delta beta"]).flat(),
];

/** Listings with these titles (and a number), each newer than the last. */
function listings(titles: string[]): Listing[] {
  return titles.map((title) => {
    made++;
    return buildListing({
      userId: author.id,
      title: `${title} audit ${made}`,
      description: `Work number ${made}`,
      createdAt: new Date(NOW.getTime() - 3_600_000 + made * 1_000),
    });
  });
}

function write(listings: Listing[]): void {
  const writer = createListingWriter(sqlite);
  sqlite.transaction(() => {
    for (const listing of listings) writer.insert(listing);
  })();
  stored.push(...listings);
}

beforeAll(async () => {
  sqlite = await migratedConnection(author);
  write(listings(MIXED));
});
afterAll(() => {
  sqlite.close();
  removeTempDbs();
});

/** Every page of a find by words, each cut at the runner's budget. */
const findAll = (runner: FindRunner, phrase = "alpha beta") =>
  allPages(runner, { status: "active", words: phrase.split(" "), sort: "newest", limit: 2 }, NOW);

/** Every page of a title search, each cut at the runner's budget. */
function searchAll(runner: SearchRunner, phrase = "alpha beta"): string[] {
  const ids: string[] = [];
  let before: string | undefined;
  for (let page = 0; page < 500; page++) {
    const found = runner.run({ status: "active", text: phrase, limit: 2, before }, NOW);
    ids.push(...found.map((row) => row.id));
    before = found.length >= 2 ? found.at(-1)?.id : found.resumeBefore;
    if (before === undefined) return ids;
  }
  throw new Error("more than 500 pages");
}

const everyId = (title = "Alpha beta") =>
  stored
    .filter((listing) => listing.title.startsWith(title))
    .map((listing) => listing.id)
    .sort((a, b) => b.localeCompare(a));

it("a search after listings were written reads the index as written", () => {
  const finds = createFindRunner(sqlite, { find: 3, facets: 12 });
  const searches = createSearchRunner(sqlite, { searchBudget: 3 });
  expect(findAll(finds)).toEqual(everyId());
  expect(searchAll(searches)).toEqual(everyId());
  // The same searches again with their answers kept, then after each of two writes.
  for (let round = 0; round < 3; round++) {
    if (round > 0) write(listings(MATCHES_BURIED));
    expect(findAll(finds), `find, round ${round}`).toEqual(everyId());
    expect(searchAll(searches), `search, round ${round}`).toEqual(everyId());
  }
});

it("a search inside a transaction reads that transaction's own writes", () => {
  const finds = createFindRunner(sqlite, { find: 3, facets: 12 });
  const searches = createSearchRunner(sqlite, { searchBudget: 3 });
  // "kappa" the rarer word, its third newest listing a match: where a first page's stream of it stops.
  write(listings([...Array(5).fill("Nu lambda"), "Kappa lambda", "Kappa mu", "Kappa mu"]));
  expect(findAll(finds, "kappa lambda")).toEqual(everyId("Kappa lambda"));
  expect(searchAll(searches, "kappa lambda")).toEqual(everyId("Kappa lambda"));
  const writer = createListingWriter(sqlite);
  sqlite.transaction(() => {
    // One statement: FTS5 reads its entries from its pending writes, which the structure record
    // shows only once a savepoint or the commit flushes them (fts5SavepointMethod). A search begun
    // inside a transaction keeps no answers (TermMemos.around); its meets flush them, each in a
    // savepoint of its own.
    for (const listing of listings(["Kappa mu"])) {
      writer.insert(listing);
      stored.push(listing);
    }
    expect(findAll(finds, "kappa lambda")).toEqual(everyId("Kappa lambda"));
    expect(searchAll(searches, "kappa lambda")).toEqual(everyId("Kappa lambda"));
  })();
});

/** `sqlite`, counting the reads of FTS5 structure records (fts-term-memo.ts) and the BEGINs run. */
const counting = (counts: { reads: number; begins: number }): Database =>
  countingStatements(sqlite, counts, (text) => {
    if (/_data" WHERE id = \?$/.test(text)) return { method: "get", key: "reads" };
    return text === "BEGIN" ? { method: "run", key: "begins" } : undefined;
  });

it("a search reads each index's structure once, however many transactions its meets take", () => {
  const counts = { reads: 0, begins: 0 };
  const finds = createFindRunner(counting(counts), { find: 3, facets: 12 });
  const searches = createSearchRunner(counting(counts), { searchBudget: 3 });
  const pages = { n: 0 };
  const runs = <T>(run: () => T): T => {
    pages.n++;
    return run();
  };
  // Every page cut at the budget of 3: each a meet at growing cuts, each cut its own transaction.
  const found = allPages(
    { ...finds, find: (query, now) => runs(() => finds.find(query, now)) },
    { status: "active", words: ["alpha", "beta"], sort: "newest", limit: 2 },
    NOW,
  );
  expect(found).toEqual(everyId());
  // A find by words plans on the index of titles and the index of all text: at most one read each.
  expect(counts.reads).toBeGreaterThan(0);
  expect(counts.reads).toBeLessThanOrEqual(2 * pages.n);
  expect(counts.begins).toBe(pages.n);
  Object.assign(counts, { reads: 0, begins: 0 });
  pages.n = 0;
  const searched = searchAll({ run: (query, now) => runs(() => searches.run(query, now)) });
  expect(searched).toEqual(everyId());
  expect(counts.reads).toBeGreaterThan(0);
  expect(counts.reads).toBeLessThanOrEqual(pages.n);
  expect(counts.begins).toBe(pages.n);
});

it("a search without words plans nothing and opens no transaction of its own", () => {
  const counts = { reads: 0, begins: 0 };
  const finds = createFindRunner(counting(counts), { find: 3, facets: 12 });
  const searches = createSearchRunner(counting(counts), { searchBudget: 3 });
  expect(finds.find({ status: "active", sort: "newest", limit: 2 }, NOW)).toHaveLength(2);
  expect(searches.run({ status: "active", limit: 2 }, NOW)).toHaveLength(2);
  expect(counts).toEqual({ reads: 0, begins: 0 });
});
