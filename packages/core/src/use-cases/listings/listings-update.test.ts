import { describe, expect, it } from "vitest";
import { ANON, expectCode, expectInvalidField, setup, untyped } from "../../testing/use-case-kit.js";
import { create, DAY, listingWithParties } from "./listings-test-support.js";

describe("listings.update", () => {
  it("lets the author change every editable field and ignores the rest", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("a@example.com");
    const other = await signUpAndLogIn("other@example.com");
    const listing = await create(market, actor, { price: 10, contactEmail: "x@example.com" });
    const expires = new Date(deps.clock.now().getTime() + DAY);
    const updated = await market.listings.update(
      actor,
      untyped({
        id: listing.id,
        title: "New title",
        description: "New description",
        price: "99.5",
        category: "legal-consulting",
        condition: "excellent",
        images: ["https://img.example.com/new.png"],
        structuredData: { v: 2 },
        contactEmail: "new@example.com",
        expiresAt: expires.toISOString(),
        status: "paused",
        // Not editable: ignored.
        userId: other.user.id,
        views: 1000,
        createdAt: "2000-01-01T00:00:00Z",
      }),
    );
    expect(updated).toMatchObject({
      id: listing.id,
      userId: user.id,
      views: 0,
      title: "New title",
      description: "New description",
      price: 99.5,
      category: "legal-consulting",
      condition: "excellent",
      images: ["https://img.example.com/new.png"],
      structuredData: { v: 2 },
      contactEmail: "new@example.com",
      expiresAt: expires,
      status: "paused",
      createdAt: listing.createdAt,
    });
    await expect(market.listings.get({ id: listing.id })).resolves.toEqual(updated);

    const cleared = await market.listings.update(actor, {
      id: listing.id,
      price: null,
      contactEmail: null,
      expiresAt: null,
    });
    expect(cleared).toMatchObject({ price: null, contactEmail: null, expiresAt: null, title: "New title" });
  });

  it("validates the changes", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("a@example.com");
    const listing = await create(market, actor);
    await expectCode(
      market.listings.update(actor, { id: listing.id, title: "t".repeat(201) }),
      "invalid_input",
    );
    await expectCode(
      market.listings.update(actor, untyped({ id: listing.id, status: "expired" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.update(actor, untyped({ id: listing.id, category: "nope" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.update(actor, { id: listing.id, images: ["file:///etc/passwd"] }),
      "invalid_input",
    );
    await expectCode(market.listings.update(actor, { id: listing.id, expiresAt: "soon" }), "invalid_input");
    await expect(market.listings.get({ id: listing.id })).resolves.toEqual(listing);
  });

  it("lets an admin edit, forbids other users, and reports unknown and malformed ids", async () => {
    const { market, author, other, admin, listing } = await listingWithParties();

    await expectCode(market.listings.update(other.actor, { id: listing.id, title: "Mine now" }), "forbidden");
    await expect(
      market.listings.update(admin, { id: listing.id, title: "Moderated" }),
    ).resolves.toMatchObject({
      title: "Moderated",
      userId: author.user.id,
    });
    await expectCode(
      market.listings.update(author.actor, { id: crypto.randomUUID(), title: "x" }),
      "listing_not_found",
    );
    await expectInvalidField(
      market.listings.update(author.actor, { id: "not-a-uuid", title: "x" }),
      "id",
      "id: must be a UUID",
    );
    await expectCode(market.listings.update(ANON, { id: listing.id, title: "x" }), "unauthenticated");
    expect((await market.listings.get({ id: listing.id })).title).toBe("Moderated");
  });
});
