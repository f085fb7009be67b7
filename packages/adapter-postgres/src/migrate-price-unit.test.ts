import { buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

describePostgres("postgres price unit migration", () => {
  it("upgrades a database from before price units: its listings are priced fixed, an unknown unit is refused", async () => {
    const old = await databaseBefore("0018_price_unit");
    try {
      const user = buildUser();
      await old.sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 0, ${user.createdAt.toISOString()})`;
      const id = crypto.randomUUID();
      await old.sql`insert into listings (id, user_id, title, title_folded, description, price, category, condition, images, status, views, created_at)
        values (${id}, ${user.id}, 'Old audit', 'old audit', 'Priced before units', 6500, 'cybersecurity', 'good', '[]', 'active', 0, now())`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        const listings = storage.repositories.listings;
        expect(await listings.findById(id)).toMatchObject({ price: 6500, priceUnit: "fixed" });
        const limit = { maxSlots: 100, now: new Date() };
        expect(await listings.update(id, { priceUnit: "day", price: 900 }, limit)).toMatchObject({
          price: 900,
          priceUnit: "day",
        });
        await expect(old.sql`update listings set price_unit = 'week' where id = ${id}`).rejects.toMatchObject(
          {
            constraint_name: "listings_price_unit_check",
          },
        );
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });
});
