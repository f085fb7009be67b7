import { describe, expect, it } from "vitest";
import type { Actor } from "../../domain/actor.js";
import { ANON, expectCode, type Marketplace, setup } from "../../testing/use-case-kit.js";
import { create, DAY, HOUR } from "./listings-test-support.js";

/** Takes `count` of the author's slots with listings of no interest to the case. */
async function fillSlots(market: Marketplace, actor: Actor, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await create(market, actor);
}

describe("listing slots", () => {
  const slots = { slots: { personal: 2, business: 5, admin: 10 } };

  it("refuses a listing beyond the author's slots with listing_limit_reached", async () => {
    const { market, signUpAndLogIn } = setup(slots);
    const { user, actor } = await signUpAndLogIn("a@example.com");
    await fillSlots(market, actor, 2);
    await expectCode(create(market, actor), "listing_limit_reached");
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toEqual({
      canPost: false,
      activeListingsCount: 2,
      maxSlots: 2,
      accountType: "personal",
    });
    const own = await market.listings.search(ANON, { userId: user.id });
    expect(own.items).toHaveLength(2);
  });

  it("counts slots per author", async () => {
    const { market, signUpAndLogIn } = setup(slots);
    const a = await signUpAndLogIn("a@example.com");
    const b = await signUpAndLogIn("b@example.com");
    await fillSlots(market, a.actor, 2);
    await expect(create(market, b.actor)).resolves.toHaveProperty("id");
  });

  it("frees a slot when a listing expires", async () => {
    const { deps, market, signUpAndLogIn } = setup(slots);
    const { actor } = await signUpAndLogIn("a@example.com");
    await create(market, actor, { expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString() });
    await create(market, actor);
    await expectCode(create(market, actor), "listing_limit_reached");
    deps.clock.advance(HOUR);
    await expect(create(market, actor)).resolves.toHaveProperty("id");
  });

  it("frees a slot when a listing is paused or deleted", async () => {
    const { market, signUpAndLogIn } = setup(slots);
    const { actor } = await signUpAndLogIn("a@example.com");
    const first = await create(market, actor);
    const second = await create(market, actor);
    await expectCode(create(market, actor), "listing_limit_reached");
    await market.listings.update(actor, { id: first.id, status: "paused" });
    const third = await create(market, actor);
    await expectCode(create(market, actor), "listing_limit_reached");
    await market.listings.delete(actor, { id: second.id });
    await expect(create(market, actor)).resolves.toHaveProperty("id");
    expect(third.status).toBe("active");
  });

  it("refuses reactivation through status when the slots are full", async () => {
    const { deps, market, signUpAndLogIn } = setup(slots);
    const { actor } = await signUpAndLogIn("a@example.com");
    const paused = await create(market, actor);
    await market.listings.update(actor, { id: paused.id, status: "paused" });
    await fillSlots(market, actor, 2);
    await expectCode(
      market.listings.update(actor, { id: paused.id, status: "active" }),
      "listing_limit_reached",
    );
    expect((await deps.repos.listings.findById(paused.id))?.status).toBe("paused");
    // Edits that do not reactivate still work.
    await expect(market.listings.update(actor, { id: paused.id, title: "Renamed" })).resolves.toMatchObject({
      title: "Renamed",
      status: "paused",
    });
  });

  it("refuses reactivation through a future expiresAt when the slots are full", async () => {
    const { deps, market, signUpAndLogIn } = setup(slots);
    const { actor } = await signUpAndLogIn("a@example.com");
    const expiring = await create(market, actor, {
      expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString(),
    });
    deps.clock.advance(2 * HOUR);
    await fillSlots(market, actor, 2);
    const future = new Date(deps.clock.now().getTime() + DAY).toISOString();
    await expectCode(
      market.listings.update(actor, { id: expiring.id, expiresAt: future }),
      "listing_limit_reached",
    );
    await expect(
      market.listings.update(actor, { id: expiring.id, description: "still expired" }),
    ).resolves.toMatchObject({
      description: "still expired",
    });
  });

  it("decides reactivation on the stored row, not on a read that a racing pause made stale", async () => {
    const { deps, market, signUpAndLogIn } = setup(slots);
    const { user, actor } = await signUpAndLogIn("a@example.com");
    const first = await create(market, actor);
    await create(market, actor);
    const listings = deps.repos.listings;
    const read = listings.findById;
    // Between this edit's read (`first` active: nothing to reactivate) and its write,
    // another request pauses `first` and a create takes the slot that freed.
    listings.findById = async (id) => {
      const seen = await read(id);
      listings.findById = read;
      await market.listings.update(actor, { id: first.id, status: "paused" });
      await create(market, actor);
      return seen;
    };
    await expectCode(
      market.listings.update(actor, { id: first.id, status: "active" }),
      "listing_limit_reached",
    );
    expect((await read(first.id))?.status).toBe("paused");
    expect(await listings.countActiveByUser(user.id, deps.clock.now())).toBe(2);
  });

  it("allows reactivation when a slot is free, and applies the author's slots to an admin's edit", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup(slots);
    const { actor } = await signUpAndLogIn("a@example.com");
    const admin = (await logInAdmin()).actor;
    const first = await create(market, actor);
    await market.listings.update(actor, { id: first.id, status: "paused" });
    await expect(market.listings.update(actor, { id: first.id, status: "active" })).resolves.toMatchObject({
      status: "active",
    });
    await market.listings.update(admin, { id: first.id, status: "paused" });
    await fillSlots(market, actor, 2);
    await expectCode(
      market.listings.update(admin, { id: first.id, status: "active" }),
      "listing_limit_reached",
    );
  });
});
