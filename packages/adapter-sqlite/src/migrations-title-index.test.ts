import { buildListing, buildUser } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { toParams } from "./repositories/listing-rows.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

it("upgrade a database from before the index of titles: its title matches rank first at once, and edits follow", async () => {
  const { file, sqlite } = databaseBefore("0018_title-index");
  const user = buildUser();
  insertOldUser(sqlite, user);
  // Ids in creation order, as seq follows them (listing-order.ts): the second is the newer.
  const inTitle = buildListing({
    id: "01900000-0000-7000-8000-00000000a001",
    userId: user.id,
    title: "Pentest offer",
    description: "Web apps.",
  });
  const inDescription = buildListing({
    id: "01900000-0000-7000-8000-00000000a002",
    userId: user.id,
    title: "Security review",
    description: "A pentest of your API.",
  });
  const insert = sqlite.prepare(
    `INSERT INTO listings (seq, id, title, title_folded, description, price, price_unit, category, condition,
       images, user_id, structured_data, status, contact_email, expires_at, views, created_at)
     VALUES (@seq, @id, @title, @title_folded, @description, @price, @price_unit, @category, @condition,
       @images, @user_id, @structured_data, @status, @contact_email, @expires_at, @views, @created_at)`,
  );
  insert.run({ ...toParams(inTitle), seq: 1 });
  insert.run({ ...toParams(inDescription), seq: 2 });
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const find = async (words: string[]) =>
      (
        await storage.repositories.listings.find(
          { words, status: "active", sort: "relevance", limit: 10 },
          new Date(),
        )
      ).map((row) => [row.listing.title, row.rank]);
    expect(await find(["pentest"])).toEqual([
      ["Pentest offer", 0],
      ["Security review", 1],
    ]);
    await storage.repositories.listings.update(
      inDescription.id,
      { title: "Pentest of APIs" },
      { maxSlots: 10, now: new Date() },
    );
    // The trigger keeps the index of titles in step: now both titles hold the word, newer first.
    expect(await find(["pentest"])).toEqual([
      ["Pentest of APIs", 0],
      ["Pentest offer", 0],
    ]);
  } finally {
    await storage.close();
  }
});
