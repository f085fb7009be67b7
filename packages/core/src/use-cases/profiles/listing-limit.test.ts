import type { Actor } from "@psm/core";
import { describe, expect, it } from "vitest";
import {
  ANON,
  expectCode,
  expectInvalidField,
  type Marketplace as Market,
  setup,
  untyped,
} from "../../testing/use-case-kit.js";

const SLOTS = { slots: { personal: 2, business: 5, admin: 10 } };

function createListing(market: Market, actor: Actor) {
  return market.listings.create(actor, {
    title: "Audit",
    description: "Two weeks.",
    category: "cybersecurity",
  });
}

describe("profiles.isAdmin", () => {
  it("answers true for an admin and false for a user or an unknown id", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup();
    const admin = await logInAdmin();
    const { user } = await signUpAndLogIn("alice@example.com");
    await expect(market.profiles.isAdmin({ userId: admin.user.id })).resolves.toBe(true);
    await expect(market.profiles.isAdmin({ userId: user.id })).resolves.toBe(false);
    await expect(market.profiles.isAdmin({ userId: crypto.randomUUID() })).resolves.toBe(false);
    await expectInvalidField(market.profiles.isAdmin({ userId: "nope" }), "userId");
    await expectCode(market.profiles.isAdmin(untyped({})), "invalid_input");
  });
});

describe("profiles.getLimit", () => {
  it("reports slots from real listings, per account type", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup(SLOTS);
    const { user, actor } = await signUpAndLogIn("alice@example.com");
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toEqual({
      canPost: true,
      activeListingsCount: 0,
      maxSlots: 2,
      accountType: "personal",
    });
    await createListing(market, actor);
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toMatchObject({
      canPost: true,
      activeListingsCount: 1,
    });
    const second = await createListing(market, actor);
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toMatchObject({
      canPost: false,
      activeListingsCount: 2,
    });
    await market.listings.update(actor, { id: second.id, status: "paused" });
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toMatchObject({
      canPost: true,
      activeListingsCount: 1,
    });

    const admin = await logInAdmin();
    await expect(market.profiles.getLimit({ userId: admin.user.id })).resolves.toMatchObject({
      maxSlots: 10,
    });
    await market.profiles.sync(admin.actor, {
      id: user.id,
      email: "alice@example.com",
      accountType: "business",
    });
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toEqual({
      canPost: true,
      activeListingsCount: 1,
      maxSlots: 5,
      accountType: "business",
    });
  });

  it("reports an unknown user as user_not_found and a malformed id as invalid_input", async () => {
    const { market } = setup();
    await expectCode(market.profiles.getLimit({ userId: crypto.randomUUID() }), "user_not_found");
    await expectInvalidField(
      market.profiles.getLimit({ userId: "nope" }),
      "userId",
      "userId: must be a UUID",
    );
  });
});

describe("profiles.postLimit", () => {
  it("answers like the GET and moves nothing", async () => {
    const { market, signUpAndLogIn } = setup(SLOTS);
    const { user, actor } = await signUpAndLogIn("alice@example.com");
    await createListing(market, actor);
    const before = await market.profiles.getLimit({ userId: user.id });
    const posted = await market.profiles.postLimit(actor, { userId: user.id });
    expect(posted).toEqual(before);
    await market.profiles.postLimit(actor, { userId: user.id });
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toEqual(before);
    await expect(createListing(market, actor)).resolves.toHaveProperty("id");
  });

  it("strict: self and admin may, another user is forbidden, anonymous is unauthenticated", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup(SLOTS);
    const alice = await signUpAndLogIn("alice@example.com");
    const bob = await signUpAndLogIn("bob@example.com");
    const admin = await logInAdmin();
    await expect(market.profiles.postLimit(alice.actor, { userId: alice.user.id })).resolves.toMatchObject({
      activeListingsCount: 0,
    });
    await expect(market.profiles.postLimit(admin.actor, { userId: alice.user.id })).resolves.toMatchObject({
      maxSlots: 2,
    });
    await expectCode(market.profiles.postLimit(bob.actor, { userId: alice.user.id }), "forbidden");
    await expectCode(market.profiles.postLimit(ANON, { userId: alice.user.id }), "unauthenticated");
    await expectCode(
      market.profiles.postLimit(admin.actor, { userId: crypto.randomUUID() }),
      "user_not_found",
    );
  });

  it("legacy: an anonymous caller may, and nothing moves", async () => {
    const { market, signUpAndLogIn } = setup({ ...SLOTS, securityMode: "legacy" });
    const { user, actor } = await signUpAndLogIn("alice@example.com");
    for (let i = 0; i < 3; i++) {
      await expect(market.profiles.postLimit(ANON, { userId: user.id })).resolves.toEqual({
        canPost: true,
        activeListingsCount: 0,
        maxSlots: 2,
        accountType: "personal",
      });
    }
    await expect(createListing(market, actor)).resolves.toHaveProperty("id");
    await expect(createListing(market, actor)).resolves.toHaveProperty("id");
  });
});
