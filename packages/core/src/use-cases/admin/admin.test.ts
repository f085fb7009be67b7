import { type Actor, isMarketplaceError } from "@psm/core";
import { describe, expect, it } from "vitest";
import {
  ANON,
  expectCode,
  expectInvalidField,
  type Marketplace as Market,
  KIT_PASSWORD as PASSWORD,
  setup,
} from "../../testing/use-case-kit.js";

function createListing(market: Market, actor: Actor, title = "Audit") {
  return market.listings.create(actor, { title, description: "Two weeks.", category: "cybersecurity" });
}

describe("admin access", () => {
  it("refuses every admin use case to anonymous callers, admin API keys and user JWTs", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup();
    const admin = await logInAdmin();
    const { secret } = await market.apiKeys.create(admin.actor, {});
    const adminKey = await market.auth.authenticate({ apiKey: secret });
    const user = await signUpAndLogIn("user@example.com");
    const listing = await createListing(market, user.actor);

    const calls: [string, (actor: Actor) => Promise<unknown>][] = [
      ["listPosts", (actor) => market.admin.listPosts(actor, {})],
      ["deletePost", (actor) => market.admin.deletePost(actor, { postId: listing.id })],
      ["listUsers", (actor) => market.admin.listUsers(actor, {})],
      ["deleteUser", (actor) => market.admin.deleteUser(actor, { userId: user.user.id })],
    ];
    for (const [name, call] of calls) {
      const outcomes = await Promise.all(
        [ANON, adminKey, user.actor].map((actor) =>
          call(actor).then(
            () => "resolved",
            (e: unknown) => (isMarketplaceError(e) ? e.code : "other"),
          ),
        ),
      );
      expect({ name, outcomes }).toEqual({
        name,
        outcomes: ["unauthenticated", "unauthenticated", "admin_required"],
      });
    }
    // Nothing was deleted by the refused calls.
    await expect(market.listings.get({ id: listing.id })).resolves.toHaveProperty("id", listing.id);
    await expect(market.auth.authenticate({ bearer: user.token })).resolves.toMatchObject({ kind: "user" });
  });
});

describe("admin.listPosts and deletePost", () => {
  it("lists every listing of any status, newest first, and pages", async () => {
    const { deps, market, signUpAndLogIn, logInAdmin } = setup();
    const admin = await logInAdmin();
    const author = await signUpAndLogIn("author@example.com");
    const active = await createListing(market, author.actor, "active");
    const paused = await createListing(market, author.actor, "paused");
    await market.listings.update(author.actor, { id: paused.id, status: "paused" });
    const expiring = await market.listings.create(author.actor, {
      title: "expiring",
      description: "d",
      category: "cybersecurity",
      expiresAt: new Date(deps.clock.now().getTime() + 60_000).toISOString(),
    });
    deps.clock.advance(120_000);

    const page = await market.admin.listPosts(admin.actor, {});
    expect(page.items.map((l) => l.id)).toEqual([expiring.id, paused.id, active.id]);
    expect(page.nextCursor).toBeNull();
    const first = await market.admin.listPosts(admin.actor, { limit: 2 });
    expect(first.items.map((l) => l.id)).toEqual([expiring.id, paused.id]);
    const second = await market.admin.listPosts(admin.actor, {
      limit: 2,
      cursor: first.nextCursor ?? undefined,
    });
    expect(second.items.map((l) => l.id)).toEqual([active.id]);
    await expectCode(market.admin.listPosts(admin.actor, { limit: "x" }), "invalid_input");
  });

  it("deletes any listing; unknown is listing_not_found, malformed invalid_input", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup();
    const admin = await logInAdmin();
    const author = await signUpAndLogIn("author@example.com");
    const listing = await createListing(market, author.actor);
    await market.admin.deletePost(admin.actor, { postId: listing.id });
    await expectCode(market.listings.get({ id: listing.id }), "listing_not_found");
    await expectCode(market.admin.deletePost(admin.actor, { postId: listing.id }), "listing_not_found");
    await expectInvalidField(
      market.admin.deletePost(admin.actor, { postId: "not-a-uuid" }),
      "postId",
      "postId: must be a UUID",
    );
  });
});

describe("admin.listUsers and deleteUser", () => {
  it("lists every user, newest first, with derived listing counts and no secrets", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup();
    const admin = await logInAdmin();
    const alice = await signUpAndLogIn("alice@example.com");
    await createListing(market, alice.actor);
    const page = await market.admin.listUsers(admin.actor, {});
    expect(page.items.map((u) => u.id)).toEqual([alice.user.id, admin.user.id]);
    expect(page.items[0]).toMatchObject({ email: "alice@example.com", activeListingsCount: 1 });
    expect(page.items[1]).toMatchObject({ isAdmin: true, activeListingsCount: 0 });
    expect(JSON.stringify(page)).not.toMatch(/passwordHash|tokenVersion/);
  });

  it("deletes a user with their listings and keys, and keeps messages", async () => {
    const { deps, market, signUpAndLogIn, logInAdmin } = setup();
    const admin = await logInAdmin();
    const seller = await signUpAndLogIn("seller@example.com");
    const buyer = await signUpAndLogIn("buyer@example.com");
    const listing = await createListing(market, seller.actor);
    const { apiKey, secret } = await market.apiKeys.create(seller.actor, {});
    const message = await market.messages.send(buyer.actor, {
      listingId: listing.id,
      receiverId: seller.user.id,
      content: "hello",
    });

    await market.admin.deleteUser(admin.actor, { userId: seller.user.id });

    expect(await deps.repos.users.findById(seller.user.id)).toBeNull();
    await expectCode(market.listings.get({ id: listing.id }), "listing_not_found");
    expect(await deps.repos.apiKeys.findById(apiKey.id)).toBeNull();
    await expectCode(market.auth.authenticate({ apiKey: secret }), "unauthenticated");
    await expectCode(market.auth.authenticate({ bearer: seller.token }), "unauthenticated");
    const sent = await market.messages.list(buyer.actor, { type: "sent" });
    expect(sent.items.map((m) => m.id)).toEqual([message.id]);
    const users = await market.admin.listUsers(admin.actor, {});
    expect(users.items.map((u) => u.id)).not.toContain(seller.user.id);
  });

  it("refuses to delete an admin, and reports unknown and malformed ids", async () => {
    const { market, logInAdmin } = setup();
    const admin = await logInAdmin();
    await expectCode(market.admin.deleteUser(admin.actor, { userId: admin.user.id }), "cannot_delete_admin");
    await expectCode(market.admin.deleteUser(admin.actor, { userId: crypto.randomUUID() }), "user_not_found");
    await expectInvalidField(
      market.admin.deleteUser(admin.actor, { userId: "not-a-uuid" }),
      "userId",
      "userId: must be a UUID",
    );
    await expect(market.profiles.isAdmin({ userId: admin.user.id })).resolves.toBe(true);
  });
});

describe("admin.ensureAdmin", () => {
  it("creates an admin who can log in, with a proven address", async () => {
    const { market } = setup();
    const { user: admin, outcome } = await market.admin.ensureAdmin({
      email: " Root@Example.com ",
      password: PASSWORD,
    });
    expect(outcome).toBe("created");
    expect(admin).toMatchObject({ email: "root@example.com", isAdmin: true, emailVerified: true });
    const { user } = await market.auth.logIn({ email: "root@example.com", password: PASSWORD });
    expect(user).toMatchObject({ id: admin.id, isAdmin: true });
  });

  it("is idempotent and leaves an existing admin's password alone", async () => {
    const { deps, market } = setup();
    const first = await market.admin.ensureAdmin({ email: "root@example.com", password: PASSWORD });
    const second = await market.admin.ensureAdmin({
      email: "ROOT@example.com",
      password: "another-password",
    });
    expect(second.outcome).toBe("unchanged");
    expect(second.user.id).toBe(first.user.id);
    expect(await deps.repos.users.list({ limit: 10 })).toHaveLength(1);
    await expect(
      market.auth.logIn({ email: "root@example.com", password: PASSWORD }),
    ).resolves.toHaveProperty("token");
    await expectCode(
      market.auth.logIn({ email: "root@example.com", password: "another-password" }),
      "invalid_credentials",
    );
  });

  it("takes over a non-admin account holding the address before promoting it", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    // Someone registered the operator's address first and armed it.
    const squatter = await signUpAndLogIn("boss@example.com");
    const { secret } = await market.apiKeys.create(squatter.actor, {});
    await market.users.updateDisplayName(squatter.actor, { displayName: "Official Support" });
    const published = await Promise.all(
      ["Refunds desk", "Wire transfers"].map((title) =>
        market.listings.create(squatter.actor, {
          title,
          description: "Pay here",
          category: "financial-services",
        }),
      ),
    );
    const promoted = await market.admin.ensureAdmin({ email: "boss@example.com", password: "operator-pass" });
    expect(promoted).toMatchObject({
      outcome: "promoted",
      user: { id: squatter.user.id, isAdmin: true, emailVerified: true, displayName: "Admin" },
    });
    // What the squatter published does not go on under the admin's name: paused, and named.
    expect([...(promoted.pausedListingIds ?? [])].sort()).toEqual(published.map((l) => l.id).sort());
    for (const listing of published) {
      expect((await deps.repos.listings.findById(listing.id))?.status).toBe("paused");
    }
    // Everything the squatter held is refused: password, JWT, key.
    await expectCode(
      market.auth.logIn({ email: "boss@example.com", password: PASSWORD }),
      "invalid_credentials",
    );
    await expectCode(market.auth.authenticate({ bearer: squatter.token }), "unauthenticated");
    await expectCode(market.auth.authenticate({ apiKey: secret }), "api_key_revoked");
    const keys = await deps.repos.apiKeys.list(squatter.user.id, { limit: 10 });
    expect(keys.map((key) => key.isActive)).toEqual([false]);
    // The operator's password works, with admin rights.
    const { token } = await market.auth.logIn({ email: "boss@example.com", password: "operator-pass" });
    const actor = await market.auth.authenticate({ bearer: token });
    await expect(market.admin.listUsers(actor, {})).resolves.toHaveProperty("items");
    // Once an admin, the account is left alone by later starts.
    await expect(
      market.admin.ensureAdmin({ email: "boss@example.com", password: "operator-pass" }),
    ).resolves.toMatchObject({ outcome: "unchanged" });
    await expect(market.auth.authenticate({ bearer: token })).resolves.toMatchObject({ kind: "user" });
  });

  it("gives a password to a password-less (synced) account it promotes", async () => {
    const { market } = setup({ securityMode: "legacy" });
    const id = crypto.randomUUID();
    await market.profiles.sync({ kind: "anonymous" }, { id, email: "ops@example.com" });
    await expect(
      market.admin.ensureAdmin({ email: "ops@example.com", password: "operator-pass" }),
    ).resolves.toMatchObject({ outcome: "promoted", user: { id, isAdmin: true } });
    await expect(
      market.auth.logIn({ email: "ops@example.com", password: "operator-pass" }),
    ).resolves.toMatchObject({ user: { id, isAdmin: true } });
  });
});
