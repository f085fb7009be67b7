import { listingMatchKeys } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

const search = (n: number) => `01900000-0000-7000-8000-00000000b00${n}`;

describePostgres("postgres saved-search keys migration", () => {
  it("0021: a one-word q typed past its stem is keyed by what every stem it matches begins with", async () => {
    const old = await databaseBefore("0021_saved_search_keys");
    try {
      const user = buildUser();
      await old.sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 0, now())`;
      // Keys as the release before wrote them: the last word's own stem, cut at six letters.
      const before: [number, string, string][] = [
        [1, "analy", "p:anali"],
        [2, "consulti", "p:consul"],
        [3, "kubernetes audit", "w:kubernet"],
      ];
      for (const [n, q, key] of before) {
        await old.sql`insert into saved_searches (id, user_id, name, q, match_key, created_at)
          values (${search(n)}, ${user.id}, ${q}, ${q}, ${key}, now())`;
      }
      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        const keys = await old.sql<{ id: string; match_key: string }[]>`
          select id, match_key from saved_searches order by id`;
        expect(keys.map((row) => row.match_key)).toEqual(["p:anal", "p:consul", "w:kubernet"]);
        // A listing about analytics is now a candidate of "analy": its stem analyt begins with anal.
        const listing = buildListing({ title: "Analytics setup", description: "Dashboards." });
        const found = await storage.repositories.savedSearches.findCandidates([...listingMatchKeys(listing)]);
        expect(found.map((row) => row.id)).toEqual([search(1)]);
        await storage.migrate(); // nothing marked is left to key again
        expect(
          (await old.sql`select count(*)::int as n from saved_searches where match_key like 'r:%'`)[0],
        ).toEqual({ n: 0 });
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });
});
