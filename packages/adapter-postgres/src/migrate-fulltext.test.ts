import { buildListing, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

describePostgres("postgres full-text migration", () => {
  it("upgrades a database from before full-text search: its listings are found by q at once", async () => {
    const old = await databaseBefore("0012_fulltext");
    try {
      const user = buildUser();
      await old.sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 0, ${user.createdAt.toISOString()})`;
      const listing = buildListing({
        userId: user.id,
        title: "Pentest offer",
        description: "Penetration Testing for SaaS Startups, café included",
      });
      await old.sql`insert into listings (id, user_id, title, title_folded, description, price, category, condition,
          images, status, views, created_at)
        values (${listing.id}, ${user.id}, ${listing.title}, ${listing.title.toLowerCase()}, ${listing.description},
          ${listing.price}, ${listing.category}, ${listing.condition}, '[]'::jsonb, 'active', 0,
          ${listing.createdAt.toISOString()})`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        const find = (words: string[]) =>
          storage.repositories.listings.find(
            { words, status: "active", sort: "relevance", limit: 10 },
            new Date(),
          );
        expect((await find(["penetration"])).map((row) => [row.listing.id, row.rank])).toEqual([
          [listing.id, 1],
        ]);
        expect((await find(["cafe"])).map((row) => row.listing.id)).toEqual([listing.id]);
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });
});
