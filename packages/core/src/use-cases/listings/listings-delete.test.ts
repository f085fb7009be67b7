import { describe, expect, it } from "vitest";
import { ANON, expectCode, expectInvalidField, setup } from "../../testing/use-case-kit.js";
import { create, listingWithParties } from "./listings-test-support.js";

describe("listings.delete", () => {
  it("lets the author delete, keeping the messages about it", async () => {
    const { market, signUpAndLogIn } = setup();
    const author = await signUpAndLogIn("author@example.com");
    const buyer = await signUpAndLogIn("buyer@example.com");
    const listing = await create(market, author.actor);
    const message = await market.messages.send(buyer.actor, {
      listingId: listing.id,
      receiverId: author.user.id,
      content: "Hello",
    });
    await market.listings.delete(author.actor, { id: listing.id });
    await expectCode(market.listings.get({ id: listing.id }), "listing_not_found");
    const inbox = await market.messages.list(author.actor, {});
    expect(inbox.items.map((m) => m.id)).toEqual([message.id]);
  });

  it("lets an admin delete, forbids other users, and reports unknown and malformed ids", async () => {
    const { market, author, other, admin, listing: first } = await listingWithParties();
    const second = await create(market, author.actor);

    await expectCode(market.listings.delete(other.actor, { id: first.id }), "forbidden");
    await expect(market.listings.get({ id: first.id })).resolves.toHaveProperty("id", first.id);
    await market.listings.delete(admin, { id: first.id });
    await expectCode(market.listings.get({ id: first.id }), "listing_not_found");
    await expectCode(market.listings.delete(author.actor, { id: first.id }), "listing_not_found");
    await expectInvalidField(market.listings.delete(author.actor, { id: "not-a-uuid" }), "id");
    await expectCode(market.listings.delete(ANON, { id: second.id }), "unauthenticated");
    await expect(market.listings.get({ id: second.id })).resolves.toHaveProperty("id", second.id);
  });
});
