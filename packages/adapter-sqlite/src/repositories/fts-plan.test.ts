import { buildListing, buildUser } from "@psm/core/testing";
import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { countingStatements } from "../test-support/counting.js";
import { migratedConnection, removeTempDbs } from "../test-support/temp-db.js";
import { createFtsPlanner } from "./fts-plan.js";
import { createTermMemos } from "./fts-term-memo.js";
import { createListingWriter } from "./listing-order.js";

// A meet cuts each of its other streams where the nearest stream so far stops (fts-plan.ts
// meetParams): the same term at the same count, below a different point for every pair of terms.

const NOW = new Date("2026-03-01T12:00:00.000Z");
const author = buildUser({ createdAt: NOW });
let sqlite: Database;

beforeAll(async () => {
  sqlite = await migratedConnection(author);
  const writer = createListingWriter(sqlite);
  sqlite.transaction(() => {
    for (let i = 0; i < 40; i++) {
      writer.insert(
        buildListing({
          userId: author.id,
          title: i % 3 === 0 ? `Alpha audit ${i}` : `Beta review ${i}`,
          createdAt: new Date(NOW.getTime() - 3_600_000 + i * 1_000),
        }),
      );
    }
  })();
});
afterAll(() => {
  sqlite.close();
  removeTempDbs();
});

/** The `count`-th entry of `term` in (from, upTo], read directly: what a planner must answer. */
function nthDirectly(term: string, from: bigint, count: number, upTo: bigint): bigint | undefined {
  return sqlite
    .prepare<[string, bigint, bigint, number], bigint>(
      `SELECT rowid FROM listings_text WHERE listings_text MATCH ? AND rowid > ? AND rowid <= ?
        ORDER BY rowid LIMIT 1 OFFSET ?`,
    )
    .pluck()
    .safeIntegers(true)
    .get(term, from, upTo, count - 1);
}

/** `sqlite`, counting the runs of the planner's n-th entry statement. */
const countingNth = (counts: { nth: number }): Database =>
  countingStatements(sqlite, counts, (text) =>
    text.includes("OFFSET") ? { method: "get", key: "nth" } : undefined,
  );

it("one read of a term's n-th entry answers it below every cut point, as a read to each would", () => {
  const counts = { nth: 0 };
  const db = countingNth(counts);
  const memos = createTermMemos(db);
  const planner = createFtsPlanner(db, "listings_text", memos.of("listings_text"));
  const from = planner.from(undefined);
  const entries = sqlite
    .prepare<[string], bigint>("SELECT rowid FROM listings_text WHERE listings_text MATCH ? ORDER BY rowid")
    .pluck()
    .safeIntegers(true)
    .all('"review"');
  expect(entries.length).toBeGreaterThan(10);
  // Cut points on both sides of the 6th entry, and past the last.
  const cuts = [entries[2], entries[5], entries[6], entries[9], entries.at(-1), 0n] as bigint[];
  // One search's planning (its answers are kept within it).
  memos.around(() => {
    for (const upTo of cuts) {
      expect(planner.nth('"review"', from, 6, upTo), `below ${upTo}`).toBe(
        nthDirectly('"review"', from, 6, upTo),
      );
    }
    expect(planner.nth('"review"', from, 6, entries[2])).toBeUndefined();
    expect(planner.nth('"review"', from, 6, entries[5])).toBe(entries[5]);
  });
  // One read for the term and count, whatever the cut point (kept with it, one read each).
  expect(counts.nth).toBe(1);
});
