import { describe, expect, it } from "vitest";
import { at, type ContractContext, HOUR, listingOf, seedListings, seedUser, T0 } from "./context.js";

/** Cases of the slot-bounded writes and the active counts. */
export function listingSlotCases(ctx: ContractContext): void {
  describe("listings slots", () => {
    it("insertWithinSlots fills up to maxSlots, then refuses without storing", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const guard = { maxSlots: 3, now: T0 };
      const results: boolean[] = [];
      for (let i = 0; i < 4; i++)
        results.push(await repos.listings.insertWithinSlots(listingOf(user, i), guard));
      expect(results).toEqual([true, true, true, false]);
      expect(await repos.listings.countActiveByUser(user.id, T0)).toBe(3);
      expect(await repos.listings.listAll({ limit: 10 })).toHaveLength(3);
    });

    it("insertWithinSlots counts only the author's active, unexpired listings at guard.now", async () => {
      const repos = ctx.repos();
      const [user, other] = [await seedUser(repos), await seedUser(repos)];
      await seedListings(repos, [
        listingOf(user, 0, { status: "paused" }),
        listingOf(user, 1, { expiresAt: T0 }),
        listingOf(user, 2, { expiresAt: at(HOUR) }),
        listingOf(other, 3),
      ]);
      // At T0 the listing expiring in an hour still holds the only slot.
      expect(await repos.listings.insertWithinSlots(listingOf(user, 4), { maxSlots: 1, now: T0 })).toBe(
        false,
      );
      // Two hours later it has expired and frees the slot.
      expect(
        await repos.listings.insertWithinSlots(listingOf(user, 5), { maxSlots: 1, now: at(2 * HOUR) }),
      ).toBe(true);
      expect(
        await repos.listings.insertWithinSlots(listingOf(user, 6), { maxSlots: 1, now: at(2 * HOUR) }),
      ).toBe(false);
      expect(await repos.listings.insertWithinSlots(listingOf(other, 7), { maxSlots: 2, now: T0 })).toBe(
        true,
      );
    });

    it.skipIf(!ctx.concurrency)(
      "insertWithinSlots: 20 concurrent inserts with maxSlots 5 store exactly 5",
      async () => {
        const repos = ctx.repos();
        const user = await seedUser(repos);
        const guard = { maxSlots: 5, now: T0 };
        const listings = Array.from({ length: 20 }, (_, i) => listingOf(user, i));
        const results = await Promise.all(
          listings.map((listing) => repos.listings.insertWithinSlots(listing, guard)),
        );
        expect(results.filter((ok) => ok)).toHaveLength(5);
        expect(await repos.listings.countActiveByUser(user.id, T0)).toBe(5);
        const stored = await repos.listings.search({ limit: 100, status: "all", userId: user.id }, T0);
        const accepted = listings.filter((_, i) => results[i]).map((listing) => listing.id);
        expect(stored.map((listing) => listing.id).sort()).toEqual(accepted.sort());
      },
    );

    it("countActiveByUser and countActiveByUsers count active, unexpired listings per author", async () => {
      const repos = ctx.repos();
      const [a, b, c] = [await seedUser(repos), await seedUser(repos), await seedUser(repos)];
      await seedListings(repos, [
        listingOf(a, 0),
        listingOf(a, 1, { expiresAt: at(HOUR) }),
        listingOf(a, 2, { status: "paused" }),
        listingOf(a, 3, { expiresAt: T0 }),
        listingOf(b, 4),
        listingOf(c, 5, { status: "paused" }),
      ]);
      expect(await repos.listings.countActiveByUser(a.id, T0)).toBe(2);
      expect(await repos.listings.countActiveByUser(a.id, at(HOUR))).toBe(1);
      expect(await repos.listings.countActiveByUser(c.id, T0)).toBe(0);
      const counts = await repos.listings.countActiveByUsers([a.id, b.id, c.id], T0);
      expect([a, b, c].map((user) => counts.get(user.id) ?? 0)).toEqual([2, 1, 0]);
      const one = await repos.listings.countActiveByUsers([b.id], T0);
      expect(one.get(a.id) ?? 0).toBe(0);
      expect(one.get(b.id)).toBe(1);
      const none = await repos.listings.countActiveByUsers([], T0);
      expect([...none.values()].every((count) => count === 0)).toBe(true);
    });
  });
}
