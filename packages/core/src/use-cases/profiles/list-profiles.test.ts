import { describe, expect, it } from "vitest";
import { ANON, expectCode, KIT_PASSWORD as PASSWORD, setup } from "../../testing/use-case-kit.js";

describe("profiles.list", () => {
  it("shows an email only to its owner and to admins in strict mode", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup();
    const alice = await signUpAndLogIn("alice@example.com");
    const bob = await signUpAndLogIn("bob@example.com");
    const admin = await logInAdmin();

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
    const { market, signUpAndLogIn } = setup({ securityMode: "legacy" });
    await signUpAndLogIn("alice@example.com");
    await signUpAndLogIn("bob@example.com");
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
