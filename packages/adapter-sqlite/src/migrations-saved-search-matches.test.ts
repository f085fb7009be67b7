import { buildUser } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

it("upgrade to saved_search_matches without a rowid: every match kept, mailed or not, and still told once", async () => {
  const { file, sqlite } = databaseBefore("0016_saved-search-matches-without-rowid");
  const user = buildUser();
  sqlite
    .prepare(
      "INSERT INTO users (id, email, display_name, account_type, password_hash, token_version, created_at) VALUES (?, ?, ?, 'personal', ?, 0, ?)",
    )
    .run(user.id, user.email, user.displayName, user.passwordHash, user.createdAt.getTime());
  const searchId = "01900000-0000-7000-8000-00000000b001";
  sqlite
    .prepare(
      `INSERT INTO saved_searches (id, user_id, name, q, search, category, min_price, max_price, match_key, created_at)
       VALUES (?, ?, 'Audits', 'audit', NULL, NULL, NULL, NULL, 'w:audit', ?)`,
    )
    .run(searchId, user.id, Date.now());
  const insertMatch = sqlite.prepare(
    "INSERT INTO saved_search_matches (saved_search_id, listing_id, matched_at, mailed_at) VALUES (?, ?, ?, ?)",
  );
  insertMatch.run(searchId, "01900000-0000-7000-8000-00000000c001", 1_000, 2_000);
  insertMatch.run(searchId, "01900000-0000-7000-8000-00000000c002", 3_000, null);
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const repo = storage.repositories.savedSearches;
    expect(await repo.unmailedMatches(user.id, searchId, 10)).toEqual([
      {
        savedSearchId: searchId,
        listingId: "01900000-0000-7000-8000-00000000c002",
        matchedAt: new Date(3_000),
      },
    ]);
    // Both pairs are still known: recording them again tells no one; a new one is recorded.
    const again = [1, 2, 3].map((n) => ({
      savedSearchId: searchId,
      listingId: `01900000-0000-7000-8000-00000000c00${n}`,
      matchedAt: new Date(4_000),
    }));
    expect(await repo.recordMatches(again)).toEqual([again[2]]);
    // The foreign key's cascade survived the rebuild.
    expect(await repo.delete(searchId)).toBe(true);
  } finally {
    await storage.close();
  }
  const after = new Database(file, { readonly: true });
  try {
    const table = after
      .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'saved_search_matches'")
      .get() as { sql: string };
    expect(table.sql).toMatch(/WITHOUT ROWID/);
    expect(after.prepare("SELECT count(*) AS n FROM saved_search_matches").get()).toEqual({ n: 0 });
    expect(after.pragma("foreign_key_check")).toEqual([]);
  } finally {
    after.close();
  }
});
