import { buildUser } from "@psm/core/testing";
import type postgres from "postgres";
import { expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

const SEARCH = "01900000-0000-7000-8000-00000000b001";
const OTHER_SEARCH = "01900000-0000-7000-8000-00000000b002";
const listingId = (n: number) => `01900000-0000-7000-8000-00000000c00${n}`;

/** Listings `numbers` by `userId`, written with the schema of 0018 to 0020. */
async function insertListings(sql: postgres.Sql, userId: string, numbers: number[]): Promise<void> {
  for (const n of numbers) {
    await sql`insert into listings (id, user_id, title, title_folded, description, category, condition, images,
        status, views, created_at)
      values (${listingId(n)}, ${userId}, 'Audit', 'audit', 'An audit.', 'cybersecurity', 'good', '[]', 'active', 0, now())`;
  }
}

/** A user of the schema before 0020 (as before 0019). */
async function insertUser(sql: postgres.Sql) {
  const user = buildUser();
  await sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
    values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 0, ${user.createdAt.toISOString()})`;
  return user;
}

describePostgres("postgres saved-search mail cursors migration", () => {
  it("0019: each cursor starts before its saved search's oldest unmailed match; every pair kept, keyed by listing", async () => {
    const old = await databaseBefore("0019_saved_search_mail_cursors");
    try {
      const user = await insertUser(old.sql);
      for (const id of [SEARCH, OTHER_SEARCH]) {
        await old.sql`insert into saved_searches (id, user_id, name, q, match_key, created_at)
          values (${id}, ${user.id}, 'Audits', 'audit', 'w:audit', now())`;
      }
      await insertListings(old.sql, user.id, [1, 2, 3, 4]);
      // Matches as the old release kept them, each told by its event (seqs as the writer gives them).
      const told: [string, number, string | null][] = [
        [SEARCH, 1, "2026-01-01T01:00:00Z"],
        [OTHER_SEARCH, 1, "2026-01-01T01:00:00Z"],
        [SEARCH, 2, null],
        [SEARCH, 3, null],
      ];
      for (const [i, [searchId, n, mailedAt]] of told.entries()) {
        const seq = i + 1;
        await old.sql`insert into saved_search_matches (saved_search_id, listing_id, matched_at, mailed_at)
          values (${searchId}, ${listingId(n)}, ${`2026-01-01T00:00:0${seq}Z`}, ${mailedAt})`;
        await old.sql`insert into events (seq, id, type, user_id, occurred_at, data)
          values (${seq}, ${`evt_01JOLD${String(seq).padStart(20, "0")}`}, 'saved_search.matched', ${user.id},
            ${`2026-01-01T00:00:0${seq}Z`}, ${JSON.stringify({ saved_search_id: searchId, listing_id: listingId(n) })}::jsonb)`;
      }
      await old.sql`update event_sequence set last = 4 where id = 1`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        const repo = storage.repositories.savedSearches;
        const unmailed = await repo.unmailedMatches(user.id, null, 10);
        expect(unmailed.matches).toEqual([
          { savedSearchId: SEARCH, listingId: listingId(2), matchedAt: new Date("2026-01-01T00:00:03Z") },
          { savedSearchId: SEARCH, listingId: listingId(3), matchedAt: new Date("2026-01-01T00:00:04Z") },
        ]);
        await repo.markMailed(user.id, null, unmailed.through!);
        expect((await repo.unmailedMatches(user.id, null, 10)).matches).toEqual([]);
        // Every pair is still known: recording them again tells no one; a new one is recorded.
        const again = [1, 2, 3, 4].map((n) => ({
          savedSearchId: SEARCH,
          listingId: listingId(n),
          matchedAt: new Date("2026-01-02T00:00:00Z"),
        }));
        expect(await repo.recordMatches(again)).toEqual([again[3]]);
        const [key] = await old.sql<
          { def: string }[]
        >`select pg_get_constraintdef(oid) as def from pg_constraint
          where conrelid = 'saved_search_matches'::regclass and contype = 'p'`;
        expect(key?.def).toBe("PRIMARY KEY (listing_id, saved_search_id)");
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });

  it("0020: the matches of listings deleted before go, and from then on each listing's go with it", async () => {
    const old = await databaseBefore("0020_listing_matches_go_with_it");
    try {
      const user = await insertUser(old.sql);
      await insertListings(old.sql, user.id, [1, 2]);
      // Listing 3 was deleted; its match stayed.
      for (const [searchId, n] of [
        [SEARCH, 1],
        [SEARCH, 2],
        [OTHER_SEARCH, 2],
        [SEARCH, 3],
      ] as const) {
        await old.sql`insert into saved_search_matches (saved_search_id, listing_id, matched_at)
          values (${searchId}, ${listingId(n)}, now())`;
      }
      const matchesOf = async () =>
        (
          await old.sql<{ id: string }[]>`select listing_id::text as id from saved_search_matches order by 1`
        ).map((row) => row.id);
      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        expect(await matchesOf()).toEqual([listingId(1), listingId(2), listingId(2)]);
        expect(await storage.repositories.listings.delete(listingId(2))).toBe(true);
        expect(await matchesOf()).toEqual([listingId(1)]);
        // With the account: the users cascade deletes the listing, and the trigger its matches.
        expect(await storage.repositories.users.deleteCascade(user.id)).toBe(true);
        expect(await matchesOf()).toEqual([]);
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });
});
