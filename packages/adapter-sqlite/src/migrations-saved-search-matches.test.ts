import { buildListing, buildUser } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { toParams } from "./repositories/listing-rows.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

const SEARCH = "01900000-0000-7000-8000-00000000b001";
const OTHER_SEARCH = "01900000-0000-7000-8000-00000000b002";
const listingId = (n: number) => `01900000-0000-7000-8000-00000000c00${n}`;

/** A user and two saved searches, written with an old release's schema. */
function seedOld(sqlite: Database.Database) {
  const user = buildUser();
  insertOldUser(sqlite, user);
  const insertSearch = sqlite.prepare(
    `INSERT INTO saved_searches (id, user_id, name, q, search, category, min_price, max_price, match_key, created_at)
     VALUES (?, ?, 'Audits', 'audit', NULL, NULL, NULL, NULL, 'w:audit', ?)`,
  );
  for (const id of [SEARCH, OTHER_SEARCH]) insertSearch.run(id, user.id, Date.now());
  const insertMatch = sqlite.prepare(
    "INSERT INTO saved_search_matches (saved_search_id, listing_id, matched_at, mailed_at) VALUES (?, ?, ?, ?)",
  );
  return { user, insertMatch };
}

/** Listings `numbers` by `user`, written with the schema of 0015 to 0018. */
function insertOldListings(sqlite: Database.Database, userId: string, numbers: number[]): void {
  const insert = sqlite.prepare(
    `INSERT INTO listings (seq, id, title, title_folded, description, price, price_unit, category, condition,
       images, user_id, structured_data, status, contact_email, expires_at, views, created_at)
     VALUES (@seq, @id, @title, @title_folded, @description, @price, @price_unit, @category, @condition,
       @images, @user_id, @structured_data, @status, @contact_email, @expires_at, @views, @created_at)`,
  );
  for (const n of numbers) insert.run({ ...toParams(buildListing({ id: listingId(n), userId })), seq: n });
}

describe("saved_search_matches upgrades", () => {
  it("0016 and 0017: every pair kept, mailed or not, and still told once; keyed by listing", async () => {
    const { file, sqlite } = databaseBefore("0016_saved-search-matches-without-rowid");
    const { user, insertMatch } = seedOld(sqlite);
    insertOldListings(sqlite, user.id, [1, 2, 3]);
    insertMatch.run(SEARCH, listingId(1), 1_000, 2_000);
    insertMatch.run(SEARCH, listingId(2), 3_000, null);
    sqlite.close();

    const storage = await openMigrated(file);
    try {
      const again = [1, 2, 3].map((n) => ({
        savedSearchId: SEARCH,
        listingId: listingId(n),
        matchedAt: new Date(4_000),
      }));
      expect(await storage.repositories.savedSearches.recordMatches(again)).toEqual([again[2]]);
    } finally {
      await storage.close();
    }
    const after = new Database(file, { readonly: true });
    try {
      const table = after
        .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'saved_search_matches'")
        .get() as { sql: string };
      expect(table.sql).toMatch(/WITHOUT ROWID/);
      expect(table.sql).toMatch(/PRIMARY KEY\(`listing_id`, `saved_search_id`\)/);
      expect(after.prepare("SELECT count(*) AS n FROM saved_search_matches").get()).toEqual({ n: 3 });
      expect(after.pragma("foreign_key_check")).toEqual([]);
    } finally {
      after.close();
    }
  });

  it("0017: each saved search's mailed cursor starts before its oldest unmailed match, so none is lost or mailed twice", async () => {
    const { file, sqlite } = databaseBefore("0017_saved-search-mail-cursors");
    const { user, insertMatch } = seedOld(sqlite);
    const insertEvent = sqlite.prepare(
      "INSERT INTO events (id, type, user_id, occurred_at, data) VALUES (?, ?, ?, ?, ?)",
    );
    let serial = 0;
    const tell = (searchId: string, n: number, at: number, mailedAt: number | null) => {
      insertMatch.run(searchId, listingId(n), at, mailedAt);
      serial++;
      insertEvent.run(
        `evt_01JMIGRATE${String(serial).padStart(16, "0")}`,
        "saved_search.matched",
        user.id,
        at,
        JSON.stringify({ saved_search_id: searchId, listing_id: listingId(n) }),
      );
    };
    tell(SEARCH, 1, 1_000, 2_000);
    tell(OTHER_SEARCH, 1, 1_500, 2_000);
    tell(SEARCH, 2, 3_000, null);
    tell(SEARCH, 3, 4_000, null);
    sqlite.close();

    const storage = await openMigrated(file);
    try {
      const repo = storage.repositories.savedSearches;
      const unmailed = await repo.unmailedMatches(user.id, null, 10);
      expect(unmailed.matches).toEqual([
        { savedSearchId: SEARCH, listingId: listingId(2), matchedAt: new Date(3_000) },
        { savedSearchId: SEARCH, listingId: listingId(3), matchedAt: new Date(4_000) },
      ]);
      await repo.markMailed(user.id, null, unmailed.through!);
      expect((await repo.unmailedMatches(user.id, null, 10)).matches).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it("0019: the matches of listings deleted before go, and from then on each listing's go with it", async () => {
    const { file, sqlite } = databaseBefore("0019_listing-matches-go-with-it");
    const user = buildUser();
    insertOldUser(sqlite, user);
    insertOldListings(sqlite, user.id, [1, 2]);
    // Since 0017 a match row is the pair and its time; no foreign key to the saved search.
    const insertMatch = sqlite.prepare(
      "INSERT INTO saved_search_matches (saved_search_id, listing_id, matched_at) VALUES (?, ?, ?)",
    );
    insertMatch.run(SEARCH, listingId(1), 1_000);
    insertMatch.run(SEARCH, listingId(2), 1_000);
    insertMatch.run(OTHER_SEARCH, listingId(2), 1_000);
    insertMatch.run(SEARCH, listingId(3), 1_000); // listing 3 was deleted, its match kept
    sqlite.close();

    const matchesOf = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare("SELECT listing_id FROM saved_search_matches ORDER BY 1").pluck().all();
      } finally {
        db.close();
      }
    };
    const storage = await openMigrated(file);
    try {
      expect(matchesOf()).toEqual([listingId(1), listingId(2), listingId(2)]);
      expect(await storage.repositories.listings.delete(listingId(2))).toBe(true);
      expect(matchesOf()).toEqual([listingId(1)]);
      // With the account: the users cascade deletes the listing, and the trigger its matches.
      expect(await storage.repositories.users.deleteCascade(user.id)).toBe(true);
      expect(matchesOf()).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});
