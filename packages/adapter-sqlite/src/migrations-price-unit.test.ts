import { buildUser } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

it("upgrade a database from before price units: its listings are priced fixed, and units store from then on", async () => {
  const { file, sqlite } = databaseBefore("0015_price-unit");
  const user = buildUser();
  insertOldUser(sqlite, user);
  const id = "01900000-0000-7000-8000-00000000a001";
  sqlite
    .prepare(
      `INSERT INTO listings (seq, id, title, title_folded, description, price, category, condition, images,
         user_id, structured_data, status, contact_email, expires_at, views, created_at)
       VALUES (1, ?, 'Old audit', 'old audit', 'Priced before units', 6500, 'cybersecurity', 'good', '[]',
         ?, NULL, 'active', NULL, NULL, 0, ?)`,
    )
    .run(id, user.id, Date.now());
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const listings = storage.repositories.listings;
    expect(await listings.findById(id)).toMatchObject({ price: 6500, priceUnit: "fixed" });
    const limit = { maxSlots: 100, now: new Date() };
    expect(await listings.update(id, { priceUnit: "hour", price: 150 }, limit)).toMatchObject({
      price: 150,
      priceUnit: "hour",
    });
  } finally {
    await storage.close();
  }
});
