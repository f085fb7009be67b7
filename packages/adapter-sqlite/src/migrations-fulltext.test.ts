import { buildListing, buildUser } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { toParams } from "./repositories/listing-rows.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

it("upgrade a database from before full-text search: its listings are found by q at once", async () => {
  const { file, sqlite } = databaseBefore("0009_fulltext");
  const user = buildUser();
  insertOldUser(sqlite, user);
  const old = buildListing({
    userId: user.id,
    title: "Pentest offer",
    description: "Penetration Testing for SaaS Startups",
  });
  // The columns of that level: later ones (price_unit) do not exist yet.
  const { price_unit: _later, ...params } = toParams(old);
  sqlite
    .prepare(
      `INSERT INTO listings (seq, id, title, title_folded, description, price, category, condition, images,
         user_id, structured_data, status, contact_email, expires_at, views, created_at)
       VALUES (1, @id, @title, @title_folded, @description, @price, @category, @condition, @images,
         @user_id, @structured_data, @status, @contact_email, @expires_at, @views, @created_at)`,
    )
    .run(params);
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const found = await storage.repositories.listings.find(
      { words: ["penetration"], status: "active", sort: "relevance", limit: 10 },
      new Date(),
    );
    expect(found.map((row) => [row.listing.id, row.rank])).toEqual([[old.id, 1]]);
  } finally {
    await storage.close();
  }
});
