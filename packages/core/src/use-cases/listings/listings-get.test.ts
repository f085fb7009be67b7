import { describe, expect, it } from "vitest";
import { expectCode, expectInvalidField, setup } from "../../testing/use-case-kit.js";
import { create, HOUR } from "./listings-test-support.js";

describe("listings.get and recordView", () => {
  it("returns a listing whatever its status; malformed or unknown ids are listing_not_found", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("a@example.com");
    const listing = await create(market, actor, {
      expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString(),
    });
    await market.listings.update(actor, { id: listing.id, status: "paused" });
    await expect(market.listings.get({ id: listing.id })).resolves.toMatchObject({
      id: listing.id,
      status: "paused",
    });
    await market.listings.update(actor, { id: listing.id, status: "active" });
    deps.clock.advance(2 * HOUR);
    await expect(market.listings.get({ id: listing.id })).resolves.toMatchObject({ id: listing.id });
    await expect(market.listings.get({ id: listing.id.toUpperCase() })).resolves.toMatchObject({
      id: listing.id,
    });

    await expectCode(market.listings.get({ id: crypto.randomUUID() }), "listing_not_found");
    await expectCode(market.listings.get({ id: "not-a-uuid" }), "listing_not_found");
    await expectCode(market.listings.get({ id: "" }), "listing_not_found");
  });

  it("counts views; unknown ids are listing_not_found and malformed ones invalid_input", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("a@example.com");
    const listing = await create(market, actor);
    await market.listings.recordView({ id: listing.id });
    expect((await market.listings.get({ id: listing.id })).views).toBe(1);
    await expectCode(market.listings.recordView({ id: crypto.randomUUID() }), "listing_not_found");
    await expectInvalidField(market.listings.recordView({ id: "not-a-uuid" }), "id", "id: must be a UUID");
  });

  it("adds exactly N for N concurrent views", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("a@example.com");
    const listing = await create(market, actor);
    await Promise.all(Array.from({ length: 20 }, () => market.listings.recordView({ id: listing.id })));
    expect((await market.listings.get({ id: listing.id })).views).toBe(20);
  });
});
