import { buildUser } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
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

describe("saved_search_matches upgrades", () => {
  it("0016 and 0017: every pair kept, mailed or not, and still told once; keyed by listing", async () => {
    const { file, sqlite } = databaseBefore("0016_saved-search-matches-without-rowid");
    const { insertMatch } = seedOld(sqlite);
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
});
