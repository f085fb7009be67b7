import type { Listing, Storage } from "@psm/core";
import { adversarialListings, buildUser, expectAdversarialSearchAgrees } from "@psm/core/testing";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { openSqliteStorage } from "../index.js";
import { insertListings, removeTempDbs, tempDbFile } from "../test-support/temp-db.js";

// Every search does a bounded amount of work inside the match, whatever its
// term: terms whose trigrams (or words) are common but never meet stop short
// at the budget with a point to go on from (DESIGN.md "Bounded inside the match").

const NOW = new Date("2026-03-01T13:00:00.000Z");
let storage: Storage;
let rows: Listing[];

beforeEach(async () => {
  // Three rows a search: the bound engages on nearly every hostile term.
  storage = openSqliteStorage({ file: tempDbFile(), searchBudget: 3 });
  await storage.migrate();
  const author = buildUser({ createdAt: NOW });
  rows = adversarialListings(author);
  await insertListings(storage, author, rows, NOW);
});
afterEach(() => storage.close());
afterAll(removeTempDbs);

it("stops short on common trigrams that never meet, instead of walking their doclists to find nothing", async () => {
  // Each trigram is in a third of the titles or more; the phrase in none (its words never share a listing).
  const page = await storage.repositories.listings.search(
    { status: "active", text: "consulting testing", limit: 5 },
    NOW,
  );
  expect(page.length).toBe(0);
  expect(page.resumeBefore).toBeDefined();
});

it("stops short on common words that never meet, in every sort, and in facets", async () => {
  for (const sort of ["newest", "relevance", "price_asc"] as const) {
    const page = await storage.repositories.listings.find(
      { status: "active", words: ["consulting", "testing"], sort, limit: 5 },
      NOW,
    );
    expect([page.length, page.resumeAfter !== undefined], sort).toEqual([0, true]);
  }
  const counted = await storage.repositories.listings.countByCategory(
    { status: "active", words: ["consulting", "testing"] },
    1000,
    NOW,
  );
  expect(counted).toEqual({ counts: {}, capped: true });
});

it("answers adversarial terms as the oracle does through its short pages and cursors", async () => {
  const { short, withHits } = await expectAdversarialSearchAgrees(storage.repositories, rows);
  expect(short).toBeGreaterThan(50);
  expect(withHits).toBeGreaterThan(15);
});
