import {
  CATEGORY_VALUES,
  effectiveStatus,
  isSearchable,
  type Listing,
  type ListingSearch,
  type ListingStatusFilter,
  type Storage,
} from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStorage } from "../index.js";
import { openMigrated, removeTempDbs, tempDbFile } from "../test-support/temp-db.js";
import { createSearchRunner, type SearchRunner } from "./listing-search.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const ROOM = { maxSlots: 1_000_000, now: NOW };
// Letters whose case mapping SQLite gets wrong, FTS5 query syntax, and LIKE wildcards.
const ALPHABET = [...'aAbBüÜéÉöÖßİıΣσς日本 %_\\"*-^():+'];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function oracle(rows: Listing[], query: ListingSearch): string[] {
  const needle = (query.text ?? "").toLowerCase();
  return rows
    .filter(
      (row) =>
        (query.status === "all" || effectiveStatus(row, NOW) === query.status) &&
        (query.category === undefined || row.category === query.category) &&
        (query.userId === undefined || row.userId === query.userId) &&
        (query.before === undefined || row.id < query.before) &&
        row.title.toLowerCase().includes(needle),
    )
    .map((row) => row.id)
    .sort()
    .reverse()
    .slice(0, query.limit);
}

describe("listing search on SQLite agrees with a plain substring match", () => {
  let storage: Storage;
  let file: string;
  const rows: Listing[] = [];
  const authors: string[] = [];

  beforeAll(async () => {
    file = tempDbFile();
    storage = await openMigrated(file);
    const next = random(42);
    for (let a = 0; a < 3; a++) {
      const user = buildUser({ createdAt: NOW });
      await storage.repositories.users.insert(user);
      authors.push(user.id);
    }
    for (let i = 0; i < 400; i++) {
      const length = 1 + Math.floor(next() * 12);
      const title = Array.from({ length }, () => pick(next, ALPHABET)).join("");
      const roll = next();
      rows.push(
        buildListing({
          title,
          userId: pick(next, authors),
          category: pick(next, CATEGORY_VALUES.slice(0, 3)),
          status: roll < 0.15 ? "paused" : "active",
          expiresAt: roll > 0.85 ? new Date(NOW.getTime() + (roll > 0.92 ? 1 : 0)) : null,
          // Spread over time but inserted in random order: insertion order is not id order.
          createdAt: new Date(NOW.getTime() - Math.floor(next() * 10_000)),
        }),
      );
    }
    for (const row of [...rows].sort(() => next() - 0.5)) {
      await storage.repositories.listings.insertWithinSlots(row, ROOM);
    }
  });
  afterAll(async () => {
    await storage.close();
    removeTempDbs();
  });

  /** A search for `text`: a random limit, and perhaps a category, an author and a cursor. */
  function randomQuery(next: () => number, text: string, status: ListingStatusFilter): ListingSearch {
    return {
      text,
      status,
      limit: 1 + Math.floor(next() * 30),
      ...(next() < 0.3 ? { category: pick(next, CATEGORY_VALUES.slice(0, 3)) } : {}),
      ...(next() < 0.2 ? { userId: pick(next, authors) } : {}),
      ...(next() < 0.3 ? { before: pick(next, rows).id } : {}),
    };
  }

  it("for terms of every length, with every filter combination", async () => {
    const next = random(7);
    const terms = new Set<string>(["%", "_", "\\", '"', "*", "50%", "a_b", "\\\\", '""', "üß", "İ", "ς"]);
    for (let i = 0; i < 250; i++) {
      const title = pick(next, rows).title;
      const from = Math.floor(next() * title.length);
      terms.add(title.slice(from, from + 1 + Math.floor(next() * 5)).toUpperCase());
    }
    const statuses: ListingStatusFilter[] = ["active", "paused", "expired", "all"];
    let checked = 0;
    let viaIndexWithHits = 0; // terms of 3+ characters without an author: the FTS path
    for (const text of terms) {
      for (const status of statuses) {
        const query = randomQuery(next, text, status);
        const found = await storage.repositories.listings.search(query, NOW);
        const expected = oracle(rows, query);
        expect(
          found.map((row) => row.id),
          JSON.stringify(query),
        ).toEqual(expected);
        checked++;
        if ([...text.toLowerCase()].length >= 3 && !query.userId && expected.length > 0) viaIndexWithHits++;
      }
    }
    expect(checked).toBeGreaterThan(600);
    expect(viaIndexWithHits).toBeGreaterThan(40);
  });

  it("short terms agree too when they leave the walk for the trigram vocabulary", () => {
    // A budget of one row sends nearly every short term to the index fallback.
    const sqlite = new Database(file, { readonly: true });
    const runner = createSearchRunner(sqlite, { walkBudget: 1 });
    const next = random(11);
    const terms = new Set<string>(["%", "_", "\\", '"', "ü", "Ü", "ß", "İ", "ς", "日", "a ", " a", "zz"]);
    for (let i = 0; i < 150; i++) {
      const title = pick(next, rows).title;
      const from = Math.floor(next() * title.length);
      terms.add(title.slice(from, from + 1 + Math.floor(next() * 2)));
    }
    for (const text of terms) {
      for (const status of ["active", "all", "paused"] as const) {
        const query: ListingSearch = {
          text,
          status,
          limit: 1 + Math.floor(next() * 30),
          ...(next() < 0.3 ? { category: pick(next, CATEGORY_VALUES.slice(0, 3)) } : {}),
          ...(next() < 0.3 ? { before: pick(next, rows).id } : {}),
        };
        const found = runner.run(query, NOW).map((row) => row.id);
        expect(found, JSON.stringify(query)).toEqual(oracle(rows, query));
      }
    }
    sqlite.close();
  });

  /**
   * A search's first `limit` matches, going on below `resumeBefore` as core
   * does when the runner stopped short; and how many times it did.
   */
  function searchThrough(runner: SearchRunner, query: ListingSearch): { ids: string[]; short: number } {
    const ids: string[] = [];
    let before = query.before;
    for (let short = 0; short < 1_000; short++) {
      const found = runner.run({ ...query, before, limit: query.limit - ids.length }, NOW);
      ids.push(...found.map((row) => row.id));
      if (found.resumeBefore === undefined || ids.length >= query.limit) return { ids, short };
      // A resume point at or above the cursor would send a caller round the same page forever.
      expect(before === undefined || found.resumeBefore < before).toBe(true);
      before = found.resumeBefore;
    }
    throw new Error(`a search stopped short 1,000 times: ${JSON.stringify(query)}`);
  }

  it("stops short at its budget of rows and goes on below resumeBefore without losing a match", () => {
    // Three rows a search: nearly every search with a term stops short, on every path.
    const sqlite = new Database(file, { readonly: true });
    const runner = createSearchRunner(sqlite, { searchBudget: 3, walkBudget: 1 });
    const next = random(23);
    const terms = new Set<string>(["%", "a", "ü", "日", "ab", "a b", "aaa", "bbbb", '"*"', "xyzzy"]);
    for (let i = 0; i < 50; i++) {
      const title = pick(next, rows).title;
      const from = Math.floor(next() * title.length);
      terms.add(title.slice(from, from + 1 + Math.floor(next() * 5)));
    }
    let short = 0;
    for (const text of terms) {
      for (const status of ["active", "expired", "all", "paused"] as const) {
        const query = randomQuery(next, text, status);
        const found = searchThrough(runner, query);
        short += found.short;
        expect(found.ids, JSON.stringify(query)).toEqual(oracle(rows, query));
      }
    }
    expect(short).toBeGreaterThan(200);
    sqlite.close();
  });

  it("hands resumeBefore on through the repository, and answers a full page without it", async () => {
    const own = tempDbFile();
    const bounded = openSqliteStorage({ file: own, searchBudget: 2 });
    await bounded.migrate();
    const author = buildUser({ createdAt: NOW });
    await bounded.repositories.users.insert(author);
    const made: Listing[] = [];
    for (const [i, title] of ["Abc abd", "Abc abe", "Abc abf"].entries()) {
      made.push(buildListing({ title, userId: author.id, createdAt: new Date(NOW.getTime() + i) }));
      await bounded.repositories.listings.insertWithinSlots(made.at(-1) as Listing, ROOM);
    }
    const { listings } = bounded.repositories;
    // Every title holds the trigrams of "abc abc" and none the phrase: the two newest are examined.
    const absent = await listings.search({ text: "abc abc", status: "active", limit: 5 }, NOW);
    expect(absent).toHaveLength(0);
    expect(absent.resumeBefore).toBe(made[1]?.id);
    const rest = await listings.search(
      { text: "abc abc", status: "active", limit: 5, before: made[1]?.id },
      NOW,
    );
    expect([rest.length, rest.resumeBefore]).toEqual([0, undefined]);
    const page = await listings.search({ text: "abc ab", status: "active", limit: 2 }, NOW);
    expect(page.map((row) => row.id)).toEqual([made[2]?.id, made[1]?.id]);
    expect(page.resumeBefore).toBeUndefined();
    await bounded.close();
  });

  it("keeps seq (the negated FTS rowid) in id order whatever the insertion order", () => {
    const sqlite = new Database(file, { readonly: true });
    const bySeq = sqlite.prepare<[], string>("SELECT id FROM listings ORDER BY seq").pluck().all();
    sqlite.close();
    expect(bySeq).toEqual(rows.map((row) => row.id).sort());
  });

  it("leaves the FTS index in step with the table", () => {
    const sqlite = new Database(file);
    expect(() =>
      sqlite.exec("INSERT INTO listings_fts (listings_fts) VALUES ('integrity-check')"),
    ).not.toThrow();
    sqlite.close();
  });

  it("active search returns only searchable rows", async () => {
    const found = await storage.repositories.listings.search({ status: "active", limit: 1000 }, NOW);
    expect(found.every((row) => isSearchable(row, NOW))).toBe(true);
  });
});

describe("the FTS index follows every write", () => {
  it("update, delete and a user's cascade delete re-index in the same statement", async () => {
    const file = tempDbFile();
    const storage = await openMigrated(file);
    const { listings, users } = storage.repositories;
    const user = buildUser({ createdAt: NOW });
    await users.insert(user);
    const listing = buildListing({ userId: user.id, title: "Quantum Ledger Audit", createdAt: NOW });
    const other = buildListing({ userId: user.id, title: "Ledger review", createdAt: NOW });
    await listings.insertWithinSlots(listing, ROOM);
    await listings.insertWithinSlots(other, ROOM);
    const search = (text: string) => listings.search({ text, status: "all", limit: 10 }, NOW);
    await listings.update(listing.id, { title: "Photon Router Audit" }, ROOM);
    expect(await search("quantum")).toEqual([]);
    expect((await search("PHOTON")).map((row) => row.id)).toEqual([listing.id]);
    await listings.incrementViews(listing.id); // touches no FTS row (trigger is on title only)
    await listings.delete(other.id);
    expect(await search("ledger")).toEqual([]);
    await users.deleteCascade(user.id);
    expect(await search("audit")).toEqual([]);
    const sqlite = new Database(file);
    expect(sqlite.prepare("SELECT count(*) FROM listings_fts").pluck().get()).toBe(0);
    sqlite.exec("INSERT INTO listings_fts (listings_fts) VALUES ('integrity-check')");
    sqlite.close();
    await storage.close();
    removeTempDbs();
  });
});
