import { buildListing, buildUser } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { createListingWriter } from "./repositories/listing-order.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

it("upgrade a database from before full-text search: its listings are found by q at once", async () => {
  const { file, sqlite } = databaseBefore("0009_fulltext");
  const user = buildUser();
  sqlite
    .prepare(
      "INSERT INTO users (id, email, display_name, account_type, password_hash, token_version, created_at) VALUES (?, ?, ?, 'personal', ?, 0, ?)",
    )
    .run(user.id, user.email, user.displayName, user.passwordHash, user.createdAt.getTime());
  const old = buildListing({
    userId: user.id,
    title: "Pentest offer",
    description: "Penetration Testing for SaaS Startups",
  });
  sqlite.transaction(() => createListingWriter(sqlite).insert(old))();
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
