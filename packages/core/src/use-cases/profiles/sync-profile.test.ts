import { describe, expect, it } from "vitest";
import { ANON, expectCode, expectInvalidField, setup, untyped } from "../../testing/use-case-kit.js";

describe("profiles.sync (strict)", () => {
  it("updates the caller's own display name, never the stored email, and ignores accountType", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("alice@example.com");
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
    const { market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("alice@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expect(
      market.profiles.sync(keyActor, { id: user.id, email: "alice@example.com", displayName: "Via key" }),
    ).resolves.toMatchObject({ displayName: "Via key" });
  });

  it("forbids syncing another user's id", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const alice = await signUpAndLogIn("alice@example.com");
    const bob = await signUpAndLogIn("bob@example.com");
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
    const { deps, market, signUpAndLogIn, logInAdmin } = setup();
    const admin = await logInAdmin();
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

    const alice = await signUpAndLogIn("alice@example.com");
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
    const { market, logInAdmin } = setup();
    const admin = await logInAdmin();
    const id = crypto.randomUUID();
    const created = await market.profiles.sync(admin.actor, { id, email: "plain@example.com" });
    expect(created.accountType).toBe("personal");
  });

  it("validates id and email", async () => {
    const { market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("alice@example.com");
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
