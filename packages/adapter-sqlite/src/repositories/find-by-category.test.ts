import { CATEGORY_VALUES, type Category, type Listing, type ListingSort, relevanceRank } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import type { Database } from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../../test/database-before.js";
import { openConnection } from "../connection.js";
import { openSqliteStorage } from "../index.js";
import { allPages } from "../test-support/find-pages.js";
import { insertListings, removeTempDbs, tempDbFile } from "../test-support/temp-db.js";
import { createFindRunner } from "./listing-find.js";
import { toParams } from "./listing-rows.js";

// A find with a category reads its words from that category's rowid range of
// the indexes by category (0020_words-by-category.sql; DESIGN.md "Words by
// category"): rows of other categories are never handed over, and a category
// the index cannot answer whole falls back to the indexes of every category.

const NOW = new Date("2026-03-01T13:00:00.000Z");
const author = buildUser({ createdAt: NOW });
afterAll(removeTempDbs);

/** Ids in creation order (seq follows them), each listing in category `i % 3` of the first three. */
function catalogue(count: number): Listing[] {
  return Array.from({ length: count }, (_, i) =>
    buildListing({
      id: `01900000-0000-7000-8000-${String(i + 1).padStart(12, "0")}`,
      userId: author.id,
      title: i % 2 === 0 ? `Audit ${i} for cloud teams` : `Review ${i}`,
      description: i % 5 === 0 ? "An audit of your data." : "Plain work.",
      category: CATEGORY_VALUES[i % 3] as Category,
      createdAt: NOW,
    }),
  );
}

async function seeded(rows: Listing[]): Promise<{ file: string; sqlite: Database }> {
  const file = tempDbFile();
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await insertListings(storage, author, rows, NOW);
  await storage.close();
  return { file, sqlite: openConnection(file) };
}

/** The oracle: matching ids of `category`, ranked then newest first (ids grow with creation). */
function expected(rows: Listing[], words: string[], category: Category, sort: ListingSort): string[] {
  const ranked: { id: string; rank: number }[] = [];
  for (const row of rows) {
    const rank = row.category === category ? relevanceRank(row, words) : null;
    if (rank !== null) ranked.push({ id: row.id, rank });
  }
  return ranked
    .sort((a, b) => (sort === "relevance" && a.rank !== b.rank ? a.rank - b.rank : b.id.localeCompare(a.id)))
    .map((row) => row.id);
}

describe("a find with a category", () => {
  const rows = catalogue(60);

  it("reads its words in the category's range only, and answers as the oracle on every page", async () => {
    const { sqlite } = await seeded(rows);
    try {
      const handed: string[] = [];
      const prepared: string[] = [];
      const counting = new Proxy(sqlite, {
        get(target, key) {
          if (key !== "prepare") {
            const value = Reflect.get(target, key, target);
            return typeof value === "function" ? value.bind(target) : value;
          }
          return (sql: string) => {
            prepared.push(sql);
            const statement = target.prepare(sql);
            if (!/^\s*SELECT l\.id AS id/.test(sql)) return statement;
            const iterate = statement.iterate.bind(statement);
            return Object.assign(statement, {
              iterate: function* (...args: unknown[]) {
                for (const row of iterate(...(args as [])) as Iterable<{ category: string }>) {
                  handed.push(row.category);
                  yield row;
                }
              },
            });
          };
        },
      }) as Database;
      // A budget of 3 engages on most pages: short pages and their cursors stay in the range too.
      const runner = createFindRunner(counting, { find: 3, facets: 12 });
      for (const words of [["audit"], ["audit", "cloud"], ["review"], ["audi"], ["audit", "data"]]) {
        for (const sort of ["relevance", "newest"] as ListingSort[]) {
          for (const category of CATEGORY_VALUES.slice(0, 3)) {
            handed.length = 0;
            const query = { status: "active" as const, words, category, sort, limit: 4 };
            expect(allPages(runner, query, NOW), `${words} ${sort} ${category}`).toEqual(
              expected(rows, words, category, sort),
            );
            expect(new Set(handed), `${words} ${sort} ${category}`).toEqual(new Set([category]));
          }
        }
      }
      const wordStatements = prepared.filter((sql) => / MATCH @match| MATCH @m0/.test(sql));
      expect(wordStatements.some((sql) => sql.includes("listings_words_cat"))).toBe(true);
      expect(wordStatements.some((sql) => sql.includes("listings_title_cat"))).toBe(true);
      expect(wordStatements.filter((sql) => /listings_text |listings_title /.test(sql))).toEqual([]);
      // The next category's rows follow in rowid order, and the join to listings would drop them
      // unseen: only an upper bound on every read of the index keeps them from being read at all.
      for (const sql of prepared) {
        const reads = sql.match(/FROM listings_(words|title)_cat\b/g)?.length ?? 0;
        const bounded = sql.match(/rowid <= @(top|upTo)\b/g)?.length ?? 0;
        expect(bounded, sql).toBeGreaterThanOrEqual(reads);
      }
    } finally {
      sqlite.close();
    }
  });

  it("follows a listing's change of category and of words, and its deletion", async () => {
    const { file, sqlite } = await seeded(rows);
    sqlite.close();
    const storage = openSqliteStorage({ file });
    const find = async (words: string[], category: Category) =>
      (
        await storage.repositories.listings.find(
          { status: "active", words, category, sort: "relevance", limit: 50 },
          NOW,
        )
      ).map(({ listing }) => listing.id);
    const moved = rows[0] as Listing;
    try {
      expect(await find(["audit"], CATEGORY_VALUES[0])).toContain(moved.id);
      await storage.repositories.listings.update(
        moved.id,
        { category: CATEGORY_VALUES[4], title: "Pentest for cloud teams" },
        { maxSlots: 1000, now: NOW },
      );
      expect(await find(["audit"], CATEGORY_VALUES[0])).not.toContain(moved.id);
      expect(await find(["audit"], CATEGORY_VALUES[4])).toEqual([moved.id]);
      expect(await find(["pentest"], CATEGORY_VALUES[4])).toEqual([moved.id]);
      await storage.repositories.listings.delete(moved.id);
      expect(await find(["audit"], CATEGORY_VALUES[4])).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it("reads every category's indexes when one listing's seq lies past the ranges", async () => {
    // A UUID-shaped id from the far future: its seq is past 2^59 (listing-order.ts), so the
    // indexes by category leave it out, and finds with a category must not use them.
    const far = buildListing({
      id: "ffffffff-ffff-7fff-bfff-ffffffffffff",
      userId: author.id,
      title: "Audit from the far future",
      category: CATEGORY_VALUES[1],
      createdAt: NOW,
    });
    const { sqlite } = await seeded([...rows, far]);
    try {
      const seq = sqlite
        .prepare("SELECT seq FROM listings WHERE id = ?")
        .pluck()
        .safeIntegers(true)
        .get(far.id);
      expect(seq).toBeGreaterThanOrEqual(1n << 59n);
      const runner = createFindRunner(sqlite);
      const query = { status: "active" as const, words: ["audit"], category: CATEGORY_VALUES[1], limit: 50 };
      for (const sort of ["relevance", "newest"] as ListingSort[])
        expect(allPages(runner, { ...query, sort }, NOW)).toEqual(
          expected([...rows, far], ["audit"], CATEGORY_VALUES[1], sort),
        );
    } finally {
      sqlite.close();
    }
  });

  it("has a key for every category, as the triggers index them", async () => {
    const { sqlite } = await seeded(rows);
    try {
      const keys = sqlite.prepare("SELECT category FROM listing_category_keys ORDER BY key").pluck().all();
      expect(keys).toEqual([...CATEGORY_VALUES]);
    } finally {
      sqlite.close();
    }
  });
});

it("upgrades a database from before the indexes by category: its listings are found by category at once", async () => {
  const { file, sqlite } = databaseBefore("0020_words-by-category");
  insertOldUser(sqlite, author);
  const insert = sqlite.prepare(
    `INSERT INTO listings (seq, id, title, title_folded, description, price, price_unit, category, condition,
       images, user_id, structured_data, status, contact_email, expires_at, views, created_at)
     VALUES (@seq, @id, @title, @title_folded, @description, @price, @price_unit, @category, @condition,
       @images, @user_id, @structured_data, @status, @contact_email, @expires_at, @views, @created_at)`,
  );
  const old = catalogue(12);
  for (const [i, row] of old.entries()) insert.run({ ...toParams(row), seq: i + 1 });
  sqlite.close();

  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await storage.close();
  const upgraded = openConnection(file);
  try {
    const runner = createFindRunner(upgraded);
    for (const category of CATEGORY_VALUES.slice(0, 3)) {
      const query = { status: "active" as const, words: ["audit"], category, sort: "relevance" as const };
      expect(allPages(runner, { ...query, limit: 3 }, NOW)).toEqual(
        expected(old, ["audit"], category, "relevance"),
      );
    }
  } finally {
    upgraded.close();
  }
});
