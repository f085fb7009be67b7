import { describe, expect, it } from "vitest";
import { at, type ContractContext, HOUR, listingOf, seedListings, seedUser, T0 } from "./context.js";

/** Cases of ListingRepository.update with a slot guard. */
export function listingReactivationCases(ctx: ContractContext): void {
  describe("listings.update slot guard", () => {
    it("update with a guard refuses to reactivate a paused listing while the author is full", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [first, , paused] = await seedListings(repos, [
        listingOf(user, 0),
        listingOf(user, 1),
        listingOf(user, 2, { status: "paused" }),
      ]);
      const guard = { maxSlots: 2, now: T0 };
      expect(await repos.listings.update(paused!.id, { status: "active" }, guard)).toBe("limit_reached");
      expect((await repos.listings.findById(paused!.id))?.status).toBe("paused");
      // Edits that do not reactivate pass while full, on active and paused listings alike.
      expect(await repos.listings.update(first!.id, { title: "Still active" }, guard)).toMatchObject({
        title: "Still active",
      });
      expect(await repos.listings.update(paused!.id, { title: "Still paused" }, guard)).toMatchObject({
        title: "Still paused",
        status: "paused",
      });
      expect(await repos.listings.update(first!.id, { status: "paused" }, guard)).toMatchObject({
        status: "paused",
      });
      expect(await repos.listings.update(paused!.id, { status: "active" }, guard)).toMatchObject({
        id: paused!.id,
        status: "active",
        title: "Still paused",
      });
      expect(await repos.listings.countActiveByUser(user.id, T0)).toBe(2);
    });

    it("update with a guard treats moving expires_at into the future as reactivation", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [, expired] = await seedListings(repos, [
        listingOf(user, 0),
        listingOf(user, 1, { expiresAt: T0 }),
      ]);
      const full = { maxSlots: 1, now: T0 };
      expect(await repos.listings.update(expired!.id, { expiresAt: at(HOUR) }, full)).toBe("limit_reached");
      expect((await repos.listings.findById(expired!.id))?.expiresAt).toEqual(T0);
      expect(await repos.listings.update(expired!.id, { expiresAt: null }, full)).toBe("limit_reached");
      const roomy = { maxSlots: 2, now: T0 };
      expect(await repos.listings.update(expired!.id, { expiresAt: at(HOUR) }, roomy)).toMatchObject({
        expiresAt: at(HOUR),
      });
    });

    it("update without a guard reactivates whatever the count", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [, paused] = await seedListings(repos, [
        listingOf(user, 0),
        listingOf(user, 1, { status: "paused" }),
      ]);
      expect(await repos.listings.update(paused!.id, { status: "active" })).toMatchObject({
        status: "active",
      });
      expect(await repos.listings.countActiveByUser(user.id, T0)).toBe(2);
    });

    it.skipIf(!ctx.concurrency)(
      "update with a guard: concurrent reactivations never exceed maxSlots",
      async () => {
        const repos = ctx.repos();
        const user = await seedUser(repos);
        const paused = await seedListings(
          repos,
          Array.from({ length: 6 }, (_, i) => listingOf(user, i, { status: "paused" })),
        );
        const guard = { maxSlots: 2, now: T0 };
        const results = await Promise.all(
          paused.map((listing) => repos.listings.update(listing.id, { status: "active" }, guard)),
        );
        expect(results.filter((result) => result !== null && result !== "limit_reached")).toHaveLength(2);
        expect(await repos.listings.countActiveByUser(user.id, T0)).toBe(2);
      },
    );
  });
}
