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

    it("update decides on the stored row: only a change that makes it searchable again needs a slot", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [active, expiring] = await seedListings(repos, [
        listingOf(user, 0),
        listingOf(user, 1, { expiresAt: at(HOUR) }),
      ]);
      const full = { maxSlots: 2, now: T0 };
      // Already active: setting it active again, or moving its expiry, takes no new slot.
      expect(await repos.listings.update(active!.id, { status: "active" }, full)).toMatchObject({
        status: "active",
      });
      expect(await repos.listings.update(expiring!.id, { expiresAt: at(2 * HOUR) }, full)).toMatchObject({
        expiresAt: at(2 * HOUR),
      });
      // Paused in storage: the same change now reactivates, and is refused while full.
      expect(await repos.listings.update(active!.id, { status: "paused" }, full)).toMatchObject({
        status: "paused",
      });
      await seedListings(repos, [listingOf(user, 2)]);
      expect(await repos.listings.update(active!.id, { status: "active" }, full)).toBe("limit_reached");
      expect(await repos.listings.update(active!.id, { status: "active", title: "t" }, full)).toBe(
        "limit_reached",
      );
      expect(await repos.listings.findById(active!.id)).toMatchObject({
        status: "paused",
        title: active!.title,
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

    it.skipIf(!ctx.concurrency)(
      "update with a guard: pauses, reactivations and inserts racing never exceed maxSlots",
      async () => {
        const repos = ctx.repos();
        const user = await seedUser(repos);
        const maxSlots = 3;
        const guard = { maxSlots, now: T0 };
        const active = await seedListings(
          repos,
          Array.from({ length: maxSlots }, (_, i) => listingOf(user, i)),
        );
        const paused = await seedListings(
          repos,
          Array.from({ length: 4 }, (_, i) => listingOf(user, 10 + i, { status: "paused" })),
        );
        for (let round = 0; round < 5; round++) {
          const everything = [...active, ...paused];
          await Promise.all([
            ...everything.map((listing, i) =>
              repos.listings.update(listing.id, { status: i % 2 === round % 2 ? "paused" : "active" }, guard),
            ),
            ...everything.map((listing) => repos.listings.update(listing.id, { status: "active" }, guard)),
            repos.listings.insertWithinSlots(listingOf(user, 100 + round), guard),
          ]);
          expect(await repos.listings.countActiveByUser(user.id, T0)).toBeLessThanOrEqual(maxSlots);
        }
      },
    );
  });
}
