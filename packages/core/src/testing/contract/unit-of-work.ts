import { describe, expect, it } from "vitest";
import { at, type ContractContext, HOUR, listingOf, NO_LIMIT, seedUser } from "./context.js";

/** Cases of UnitOfWork: all or nothing, and nothing seen before the commit. */
export function unitOfWorkCases(ctx: ContractContext): void {
  describe("unit of work", () => {
    it("commits every write of a unit that resolves", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const listing = listingOf(user, 1);
      const answer = await repos.unitOfWork.run(async (tx) => {
        await tx.listings.insertWithinSlots(listing, NO_LIMIT);
        await tx.idempotency.claim(
          { id: "uow-1", fingerprint: "f", owner: "o", leaseUntil: at(HOUR), expiresAt: at(HOUR) },
          at(0),
        );
        return "done";
      });
      expect(answer).toBe("done");
      expect(await repos.listings.findById(listing.id)).not.toBeNull();
    });

    it("rolls back every write of a unit that throws, and passes the throw on", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const listing = listingOf(user, 1);
      const failure = new Error("work failed");
      const thrown = await repos.unitOfWork
        .run(async (tx) => {
          await tx.listings.insertWithinSlots(listing, NO_LIMIT);
          expect(await tx.listings.findById(listing.id)).not.toBeNull();
          await tx.listings.incrementViews(listing.id);
          await tx.users.updateProfile(user.id, { displayName: "Changed" });
          throw failure;
        })
        .catch((error: unknown) => error);
      expect(thrown).toBe(failure);
      expect(await repos.listings.findById(listing.id)).toBeNull();
      expect((await repos.users.findById(user.id))?.displayName).toBe(user.displayName);
    });

    it("other callers see a unit's writes only after it commits", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const listing = listingOf(user, 1);
      let inserted!: () => void;
      const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
      let finish!: () => void;
      const finishing = new Promise<void>((resolve) => (finish = resolve));
      const unit = repos.unitOfWork.run(async (tx) => {
        await tx.listings.insertWithinSlots(listing, NO_LIMIT);
        inserted();
        await finishing;
      });
      await insertedOnce;
      const outside = repos.listings.findById(listing.id);
      // Give the outside read every chance to run early: it must not see the uncommitted row.
      await new Promise((resolve) => setTimeout(resolve, 20));
      finish();
      await unit;
      const seen = await outside;
      expect(seen === null || seen.id === listing.id).toBe(true);
      expect(await repos.listings.findById(listing.id)).not.toBeNull();
    });

    it("views counted outside a unit are never lost when a unit rolls back", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [listing] = [listingOf(user, 1)];
      await repos.listings.insertWithinSlots(listing, NO_LIMIT);
      const unit = repos.unitOfWork
        .run(async (tx) => {
          await tx.users.updateProfile(user.id, { displayName: "Rolled back" });
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new Error("roll back");
        })
        .catch(() => undefined);
      const views = Array.from({ length: 10 }, () => repos.listings.incrementViews(listing.id));
      await Promise.all([unit, ...views]);
      expect((await repos.listings.findById(listing.id))?.views).toBe(10);
    });
  });
}
