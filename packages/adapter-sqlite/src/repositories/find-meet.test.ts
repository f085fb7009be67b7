import { type ListingSort, relevanceRank } from "@psm/core";
import { adversarialListings, buildUser } from "@psm/core/testing";
import type { Database, Statement } from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openConnection } from "../connection.js";
import { openSqliteStorage } from "../index.js";
import { allPages } from "../test-support/find-pages.js";
import { insertListings, removeTempDbs, tempDbFile } from "../test-support/temp-db.js";
import { createFindRunner } from "./listing-find.js";

// Several words whose streams are longer than the budget meet in SQL, cut:
// a row lacking one of the words is never read (DESIGN.md "Bounded inside the
// match"). Counted, not timed: the rows of `listings` each statement hands to
// the runner (a walk yields one per row it read; a facet count says how many
// it read in `examined`).

const NOW = new Date("2026-03-01T13:00:00.000Z");
const author = buildUser({ createdAt: NOW });
const rows = adversarialListings(author);
let sqlite: Database;
const read = { rows: 0 };

/** `sqlite` with every statement that reads listings rows counting them into `read`. */
function counting(db: Database): Database {
  const wrap = (statement: Statement, sql: string): Statement => {
    const walks = /^\s*SELECT l\.id AS id/.test(sql);
    const facets = sql.includes("count(*) AS examined");
    const proxy: Statement = new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          if (result === target) return proxy; // pluck(), safeIntegers(): chained
          if (key === "iterate" && walks) {
            return (function* () {
              for (const row of result as Iterable<unknown>) {
                read.rows++;
                yield row;
              }
            })();
          }
          if (key === "all" && facets) {
            for (const row of result as { examined: number }[]) read.rows += row.examined;
          }
          return result;
        };
      },
    });
    return proxy;
  };
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  const file = tempDbFile();
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await insertListings(storage, author, rows, NOW);
  await storage.close();
  sqlite = openConnection(file);
});
afterAll(() => {
  sqlite.close();
  removeTempDbs();
});

/** Listings of any status that hold every word: the rows a meet cannot avoid reading. */
const holding = (words: string[]) =>
  rows.filter((row) => relevanceRank({ title: row.title, description: row.description }, words) !== null);

it("reads no row when common words never meet, on every page and in facets", () => {
  // Each word is in half the listings, both in none: the budget of 3 engages on every page.
  const runner = createFindRunner(counting(sqlite), { find: 3, facets: 12 });
  const words = ["consulting", "testing"];
  for (const sort of ["newest", "relevance"] as ListingSort[]) {
    read.rows = 0;
    expect(allPages(runner, { status: "active", words, sort, limit: 5 }, NOW), sort).toEqual([]);
    expect(read.rows, sort).toBe(0);
  }
  read.rows = 0;
  expect(runner.countByCategory({ status: "active", words }, 1000, NOW)).toEqual({
    counts: {},
    capped: true,
  });
  expect(read.rows).toBe(0);
});

it("reads only the rows that hold every word, each once, across all pages", () => {
  const runner = createFindRunner(counting(sqlite), { find: 3, facets: 12 });
  for (const words of [
    ["design", "audit"],
    ["audit", "design", "pentest"],
    ["zorb", "zorb", "consulting"],
  ]) {
    read.rows = 0;
    const found = allPages(runner, { status: "active", words, sort: "newest", limit: 2 }, NOW);
    expect(found.length, words.join(" ")).toBeGreaterThan(0);
    // Paused and expired rows holding the words are dropped in SQL: only matches reach the runner.
    const matching = holding(words).filter(
      (row) => row.status === "active" && (row.expiresAt === null || row.expiresAt > NOW),
    );
    expect(read.rows, words.join(" ")).toBe(matching.length);
  }
});
