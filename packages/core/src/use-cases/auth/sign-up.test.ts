import { describe, expect, it } from "vitest";
import { expectCode, KIT_PASSWORD as PASSWORD, setup, untyped } from "../../testing/use-case-kit.js";

describe("auth.signUp", () => {
  it("trims and lower-cases the email and answers a user view without secrets", async () => {
    const { market } = setup();
    const user = await market.auth.signUp({ email: "  Alice@Example.COM ", password: PASSWORD });
    expect(user.email).toBe("alice@example.com");
    expect(user.emailVerified).toBe(false);
    expect(user.isAdmin).toBe(false);
    expect(user.accountType).toBe("personal");
    expect(user.activeListingsCount).toBe(0);
    expect(user).not.toHaveProperty("passwordHash");
    expect(user).not.toHaveProperty("tokenVersion");
  });

  it("defaults the display name to Member and 6 random hex characters, nothing of the email", async () => {
    const { market } = setup();
    const names = new Set<string>();
    for (const email of ["alice@example.com", "alice.smith@example.com", "member@example.com"]) {
      const { displayName } = await market.auth.signUp({ email, password: PASSWORD });
      expect(displayName).toMatch(/^Member [0-9a-f]{6}$/);
      expect(displayName.toLowerCase()).not.toContain("alice");
      expect(displayName.toLowerCase()).not.toContain("example");
      names.add(displayName);
    }
    // Random bytes, not a digest of the address: three accounts, three names.
    expect(names.size).toBe(3);
  });

  it("keeps a given display name", async () => {
    const { market } = setup();
    const user = await market.auth.signUp({
      email: "bob@example.com",
      password: PASSWORD,
      displayName: "Bob B.",
    });
    expect(user.displayName).toBe("Bob B.");
  });

  it("ignores fields a caller may not set (isAdmin, accountType, id)", async () => {
    const { market } = setup();
    const forcedId = crypto.randomUUID();
    const user = await market.auth.signUp(
      untyped({
        email: "mallory@example.com",
        password: PASSWORD,
        isAdmin: true,
        accountType: "business",
        id: forcedId,
      }),
    );
    expect(user).toMatchObject({ isAdmin: false, accountType: "personal" });
    expect(user.id).not.toBe(forcedId);
  });

  it("bounds displayName to 1..100 characters", async () => {
    const { market } = setup();
    await expectCode(
      market.auth.signUp({ email: "a@example.com", password: PASSWORD, displayName: "" }),
      "invalid_input",
    );
    await expectCode(
      market.auth.signUp({ email: "a@example.com", password: PASSWORD, displayName: "x".repeat(101) }),
      "invalid_input",
    );
  });

  it("refuses a case variant of a registered address with email_taken", async () => {
    const { deps, market } = setup();
    await market.auth.signUp({ email: "carol@example.com", password: PASSWORD });
    await expectCode(market.auth.signUp({ email: "CAROL@Example.com", password: PASSWORD }), "email_taken");
    await expectCode(
      market.auth.signUp({ email: " carol@example.com  ", password: PASSWORD }),
      "email_taken",
    );
    expect((await deps.repos.users.list({ limit: 10 })).length).toBe(1);
  });

  it("refuses a missing or malformed email and a missing password", async () => {
    const { market } = setup();
    await expectCode(market.auth.signUp(untyped({ password: PASSWORD })), "invalid_input");
    await expectCode(market.auth.signUp({ email: "not-an-email", password: PASSWORD }), "invalid_input");
    await expectCode(market.auth.signUp(untyped({ email: "dave@example.com" })), "invalid_input");
    await expectCode(market.auth.signUp(untyped(undefined)), "invalid_input");
  });

  it("bounds the password to 6..1024 characters", async () => {
    const { market } = setup();
    await expectCode(market.auth.signUp({ email: "a@example.com", password: "12345" }), "invalid_input");
    await expectCode(
      market.auth.signUp({ email: "a@example.com", password: "x".repeat(1025) }),
      "invalid_input",
    );
    await expect(market.auth.signUp({ email: "b@example.com", password: "123456" })).resolves.toMatchObject({
      email: "b@example.com",
    });
    await expect(
      market.auth.signUp({ email: "c@example.com", password: "x".repeat(1024) }),
    ).resolves.toMatchObject({
      email: "c@example.com",
    });
    await expect(
      market.auth.logIn({ email: "c@example.com", password: "x".repeat(1024) }),
    ).resolves.toHaveProperty("token");
  });

  it("stores only a hash of the password", async () => {
    const { deps, market } = setup();
    const before = deps.hasher.calls.hash;
    const user = await market.auth.signUp({ email: "e@example.com", password: PASSWORD });
    const stored = await deps.repos.users.findById(user.id);
    expect(stored?.passwordHash).toBeTruthy();
    expect(stored?.passwordHash).not.toContain(PASSWORD);
    expect(deps.hasher.calls.hash - before).toBe(1);
  });
});
