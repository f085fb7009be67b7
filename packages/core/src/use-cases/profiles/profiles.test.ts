import type { Actor } from "@psm/core";
import { describe, expect, it } from "vitest";
import {
  ANON,
  expectCode,
  expectInvalidField,
  logInAdmin,
  type Marketplace as Market,
  KIT_PASSWORD as PASSWORD,
  setupMarketplace as setup,
  signUpAndLogIn,
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

describe("profiles.list", () => {
  it("shows an email only to its owner and to admins in strict mode", async () => {
    const { market } = setup();
    const alice = await signUpAndLogIn(market, "alice@example.com");
    const bob = await signUpAndLogIn(market, "bob@example.com");
    const admin = await logInAdmin(market);

    const anonymous = await market.profiles.list(ANON, {});
    expect(anonymous.items.map((p) => p.id)).toEqual([admin.user.id, bob.user.id, alice.user.id]);
    for (const profile of anonymous.items) expect(profile).not.toHaveProperty("email");
    expect(anonymous.items[2]).toMatchObject({
      displayName: alice.user.displayName,
      isAdmin: false,
      accountType: "personal",
    });

    const asAlice = await market.profiles.list(alice.actor, {});
    const byId = new Map(asAlice.items.map((p) => [p.id, p]));
    expect(byId.get(alice.user.id)?.email).toBe("alice@example.com");
    expect(byId.get(bob.user.id)).not.toHaveProperty("email");
    expect(byId.get(admin.user.id)).not.toHaveProperty("email");

    const asAdmin = await market.profiles.list(admin.actor, {});
    expect(asAdmin.items.map((p) => p.email)).toEqual([
      "admin@example.com",
      "bob@example.com",
      "alice@example.com",
    ]);
  });

  it("shows every email in legacy mode", async () => {
    const { market } = setup({ securityMode: "legacy" });
    await signUpAndLogIn(market, "alice@example.com");
    await signUpAndLogIn(market, "bob@example.com");
    const page = await market.profiles.list(ANON, {});
    expect(page.items.map((p) => p.email)).toEqual(["bob@example.com", "alice@example.com"]);
  });

  it("never exposes secrets and pages with a cursor", async () => {
    const { market } = setup();
    for (let i = 0; i < 5; i++) await market.auth.signUp({ email: `u${i}@example.com`, password: PASSWORD });
    const first = await market.profiles.list(ANON, { limit: 3 });
    expect(first.items).toHaveLength(3);
    expect(JSON.stringify(first)).not.toMatch(/passwordHash|tokenVersion/);
    const second = await market.profiles.list(ANON, { limit: 3, cursor: first.nextCursor ?? undefined });
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((p) => p.id)).size).toBe(5);
    await expectCode(market.profiles.list(ANON, { limit: -1 }), "invalid_input");
  });

  it("pages 100 profiles by default", async () => {
    const { market } = setup();
    for (let i = 0; i < 101; i++)
      await market.auth.signUp({ email: `p${i}@example.com`, password: PASSWORD });
    const first = await market.profiles.list(ANON, {});
    expect(first.items).toHaveLength(100);
    expect(first.nextCursor).not.toBeNull();
    const rest = await market.profiles.list(ANON, { cursor: first.nextCursor ?? undefined });
    expect(rest.items).toHaveLength(1);
  });
});

describe("profiles.sync (strict)", () => {
  it("updates the caller's own display name, never the stored email, and ignores accountType", async () => {
    const { deps, market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "alice@example.com");
    const profile = await market.profiles.sync(actor, {
      id: user.id,
      email: "changed@example.com",
      displayName: "Alice A.",
      accountType: "business",
    });
    expect(profile).toEqual({
      id: user.id,
      email: "alice@example.com",
      displayName: "Alice A.",
      isAdmin: false,
      accountType: "personal",
    });
    const stored = await deps.repos.users.findById(user.id);
    expect(stored).toMatchObject({
      email: "alice@example.com",
      displayName: "Alice A.",
      accountType: "personal",
    });
  });

  it("accepts an API-key caller for its own id", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "alice@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expect(
      market.profiles.sync(keyActor, { id: user.id, email: "alice@example.com", displayName: "Via key" }),
    ).resolves.toMatchObject({ displayName: "Via key" });
  });

  it("forbids syncing another user's id", async () => {
    const { deps, market } = setup();
    const alice = await signUpAndLogIn(market, "alice@example.com");
    const bob = await signUpAndLogIn(market, "bob@example.com");
    await expectCode(
      market.profiles.sync(alice.actor, {
        id: bob.user.id,
        email: "bob@example.com",
        displayName: "Hacked",
      }),
      "forbidden",
    );
    await expectCode(
      market.profiles.sync(alice.actor, { id: crypto.randomUUID(), email: "new@example.com" }),
      "forbidden",
    );
    expect((await deps.repos.users.findById(bob.user.id))?.displayName).toBe(bob.user.displayName);
  });

  it("requires a signed-in caller", async () => {
    const { market } = setup();
    await expectCode(
      market.profiles.sync(ANON, { id: crypto.randomUUID(), email: "x@example.com" }),
      "unauthenticated",
    );
  });

  it("lets an admin create a password-less profile with an accountType and change it later", async () => {
    const { deps, market } = setup();
    const admin = await logInAdmin(market);
    const id = crypto.randomUUID();
    const created = await market.profiles.sync(admin.actor, {
      id,
      email: "  New.Corp@Example.com ",
      accountType: "business",
    });
    expect(created).toEqual({
      id,
      email: "new.corp@example.com",
      // The default name shows nothing of the address: profiles are public, emails are not.
      displayName: expect.stringMatching(/^Member [0-9a-f]{6}$/),
      isAdmin: false,
      accountType: "business",
    });
    expect((await deps.repos.users.findById(id))?.passwordHash).toBeNull();

    const again = await market.profiles.sync(admin.actor, {
      id,
      email: "new.corp@example.com",
      displayName: "New Corp",
    });
    expect(again).toMatchObject({ displayName: "New Corp", accountType: "business" });

    const alice = await signUpAndLogIn(market, "alice@example.com");
    const upgraded = await market.profiles.sync(admin.actor, {
      id: alice.user.id,
      email: "alice@example.com",
      accountType: "business",
    });
    expect(upgraded.accountType).toBe("business");
    await expect(market.profiles.getLimit({ userId: alice.user.id })).resolves.toMatchObject({
      accountType: "business",
    });
  });

  it("defaults accountType to personal when an admin creates a profile without one", async () => {
    const { market } = setup();
    const admin = await logInAdmin(market);
    const id = crypto.randomUUID();
    const created = await market.profiles.sync(admin.actor, { id, email: "plain@example.com" });
    expect(created.accountType).toBe("personal");
  });

  it("validates id and email", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "alice@example.com");
    await expectCode(market.profiles.sync(actor, untyped({ email: "alice@example.com" })), "invalid_input");
    await expectCode(market.profiles.sync(actor, untyped({ id: user.id })), "invalid_input");
    await expectInvalidField(
      market.profiles.sync(actor, { id: "nope", email: "alice@example.com" }),
      "id",
      "id: must be a UUID",
    );
    await expectCode(
      market.profiles.sync(
        actor,
        untyped({ id: user.id, email: "alice@example.com", accountType: "enterprise" }),
      ),
      "invalid_input",
    );
  });
});

describe("profiles.sync (legacy)", () => {
  it("lets an anonymous caller create a profile with the given accountType, idempotently", async () => {
    const { market } = setup({ securityMode: "legacy" });
    const id = crypto.randomUUID();
    const created = await market.profiles.sync(ANON, {
      id,
      email: "corp@example.com",
      accountType: "business",
    });
    expect(created).toMatchObject({ id, email: "corp@example.com", accountType: "business" });
    const again = await market.profiles.sync(ANON, { id, email: "corp@example.com", displayName: "Corp" });
    expect(again).toMatchObject({
      id,
      email: "corp@example.com",
      displayName: "Corp",
      accountType: "business",
    });
    const all = await market.profiles.list(ANON, {});
    expect(all.items.filter((p) => p.id === id)).toHaveLength(1);
  });

  it("defaults accountType to personal", async () => {
    const { market } = setup({ securityMode: "legacy" });
    const created = await market.profiles.sync(ANON, { id: crypto.randomUUID(), email: "p@example.com" });
    expect(created.accountType).toBe("personal");
  });
});

describe("profiles.isAdmin", () => {
  it("answers true for an admin and false for a user or an unknown id", async () => {
    const { market } = setup();
    const admin = await logInAdmin(market);
    const { user } = await signUpAndLogIn(market, "alice@example.com");
    await expect(market.profiles.isAdmin({ userId: admin.user.id })).resolves.toBe(true);
    await expect(market.profiles.isAdmin({ userId: user.id })).resolves.toBe(false);
    await expect(market.profiles.isAdmin({ userId: crypto.randomUUID() })).resolves.toBe(false);
    await expectInvalidField(market.profiles.isAdmin({ userId: "nope" }), "userId");
    await expectCode(market.profiles.isAdmin(untyped({})), "invalid_input");
  });
});

describe("profiles.getLimit", () => {
  it("reports slots from real listings, per account type", async () => {
    const { market } = setup(SLOTS);
    const { user, actor } = await signUpAndLogIn(market, "alice@example.com");
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

    const admin = await logInAdmin(market);
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
    const { market } = setup(SLOTS);
    const { user, actor } = await signUpAndLogIn(market, "alice@example.com");
    await createListing(market, actor);
    const before = await market.profiles.getLimit({ userId: user.id });
    const posted = await market.profiles.postLimit(actor, { userId: user.id });
    expect(posted).toEqual(before);
    await market.profiles.postLimit(actor, { userId: user.id });
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toEqual(before);
    await expect(createListing(market, actor)).resolves.toHaveProperty("id");
  });

  it("strict: self and admin may, another user is forbidden, anonymous is unauthenticated", async () => {
    const { market } = setup(SLOTS);
    const alice = await signUpAndLogIn(market, "alice@example.com");
    const bob = await signUpAndLogIn(market, "bob@example.com");
    const admin = await logInAdmin(market);
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
    const { market } = setup({ ...SLOTS, securityMode: "legacy" });
    const { user, actor } = await signUpAndLogIn(market, "alice@example.com");
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

describe("profiles.displayNames", () => {
  it("names existing users by id, leaves unknown ones out, and refuses more than 100 ids", async () => {
    const { market } = setup();
    const a = await signUpAndLogIn(market, "names-a@example.com");
    const b = await signUpAndLogIn(market, "names-b@example.com");
    await market.users.updateDisplayName(b.actor, { displayName: "Bea" });
    const unknown = "01900000-0000-7000-8000-000000000000";
    const names = await market.profiles.displayNames({ userIds: [a.user.id, b.user.id, unknown, b.user.id] });
    expect(names).toEqual(
      new Map([
        [a.user.id, a.user.displayName],
        [b.user.id, "Bea"],
      ]),
    );
    await expectCode(
      market.profiles.displayNames({ userIds: Array.from({ length: 101 }, () => unknown) }),
      "invalid_input",
    );
    await expectCode(market.profiles.displayNames({ userIds: ["not-a-uuid"] }), "invalid_input");
  });
});
