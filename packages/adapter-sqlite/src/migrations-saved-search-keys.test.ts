import { listingMatchKeys } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

const search = (n: number) => `01900000-0000-7000-8000-00000000b00${n}`;

it("0021: a one-word q typed past its stem is keyed by what every stem it matches begins with", async () => {
  const { file, sqlite } = databaseBefore("0021_saved-search-keys");
  const user = buildUser();
  insertOldUser(sqlite, user);
  // Keys as the release before wrote them: the last word's own stem, cut at six letters.
  const insert = sqlite.prepare(
    "INSERT INTO saved_searches (id, user_id, name, q, match_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  insert.run(search(1), user.id, "analy", "analy", "p:anali", Date.now());
  insert.run(search(2), user.id, "consulti", "consulti", "p:consul", Date.now());
  insert.run(search(3), user.id, "kubernetes audit", "kubernetes audit", "w:kubernet", Date.now());
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    // A listing about analytics is now a candidate of "analy": its stem analyt begins with anal.
    const listing = buildListing({ title: "Analytics setup", description: "Dashboards." });
    const found = await storage.repositories.savedSearches.findCandidates([...listingMatchKeys(listing)]);
    expect(found.map((row) => row.id)).toEqual([search(1)]);
    await storage.migrate(); // nothing marked is left to key again
  } finally {
    await storage.close();
  }
  const after = new Database(file, { readonly: true });
  try {
    const keys = after.prepare("SELECT match_key FROM saved_searches ORDER BY id").pluck().all();
    expect(keys).toEqual(["p:anal", "p:consul", "w:kubernet"]);
  } finally {
    after.close();
  }
});
