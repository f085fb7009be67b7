import { createJwtTokenService, isMarketplaceError } from "@psm/core";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../support/crypto.js";
import {
  expectCode,
  logInAdmin,
  KIT_PASSWORD as PASSWORD,
  setupMarketplace as setup,
  signUpAndLogIn,
  untyped,
} from "../../testing/use-case-kit.js";

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

function decodePayload(token: string): Record<string, unknown> {
  const part = token.split(".")[1] ?? "";
  const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(json) as Record<string, unknown>;
}

function encodePart(value: Record<string, unknown>): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

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

describe("auth.logIn", () => {
  it("accepts any case and surrounding spaces of the address", async () => {
    const { market } = setup();
    const user = await market.auth.signUp({ email: "frank@example.com", password: PASSWORD });
    const result = await market.auth.logIn({ email: "  FRANK@example.COM ", password: PASSWORD });
    expect(result.user.id).toBe(user.id);
    expect(result.token.split(".")).toHaveLength(3);
  });

  it("answers unknown email and wrong password alike, after the same verify work", async () => {
    const { deps, market } = setup();
    await market.auth.signUp({ email: "gina@example.com", password: PASSWORD });

    const before = deps.hasher.calls.verify;
    const unknown = await market.auth
      .logIn({ email: "nobody@example.com", password: PASSWORD })
      .catch((e: unknown) => e);
    const afterUnknown = deps.hasher.calls.verify;
    const wrong = await market.auth
      .logIn({ email: "gina@example.com", password: "wrong-password" })
      .catch((e: unknown) => e);
    const afterWrong = deps.hasher.calls.verify;

    expect(afterUnknown - before).toBe(1);
    expect(afterWrong - afterUnknown).toBe(1);
    expect(isMarketplaceError(unknown, "invalid_credentials")).toBe(true);
    expect(isMarketplaceError(wrong, "invalid_credentials")).toBe(true);
    expect(
      isMarketplaceError(unknown) && isMarketplaceError(wrong) && unknown.message === wrong.message,
    ).toBe(true);
  });

  it("answers a password-less (synced) account like an unknown one", async () => {
    const { deps, market } = setup({ securityMode: "legacy" });
    await market.profiles.sync(
      { kind: "anonymous" },
      { id: crypto.randomUUID(), email: "synced@example.com" },
    );
    const before = deps.hasher.calls.verify;
    await expectCode(
      market.auth.logIn({ email: "synced@example.com", password: PASSWORD }),
      "invalid_credentials",
    );
    expect(deps.hasher.calls.verify - before).toBe(1);
  });

  it("refuses missing fields with invalid_input", async () => {
    const { market } = setup();
    await expectCode(market.auth.logIn(untyped({ email: "x@example.com" })), "invalid_input");
    await expectCode(market.auth.logIn(untyped({ password: PASSWORD })), "invalid_input");
  });

  it("re-hashes an old-scheme hash at login without revoking tokens", async () => {
    const { deps, market } = setup();
    const { user, token } = await signUpAndLogIn(market, "hana@example.com");
    await deps.repos.users.setPasswordHash(user.id, `old$${sha256Hex(PASSWORD)}`, { revokeTokens: false });
    const versionBefore = (await deps.repos.users.findById(user.id))?.tokenVersion;
    const hashesBefore = deps.hasher.calls.hash;

    await market.auth.logIn({ email: "hana@example.com", password: PASSWORD });

    const stored = await deps.repos.users.findById(user.id);
    expect(stored?.passwordHash?.startsWith("old$")).toBe(false);
    expect(deps.hasher.needsRehash(stored?.passwordHash ?? "old$")).toBe(false);
    expect(deps.hasher.calls.hash - hashesBefore).toBe(1);
    expect(stored?.tokenVersion).toBe(versionBefore);
    await expect(market.auth.authenticate({ bearer: token })).resolves.toMatchObject({ kind: "user" });
    // The new hash still verifies the same password.
    await expect(
      market.auth.logIn({ email: "hana@example.com", password: PASSWORD }),
    ).resolves.toHaveProperty("token");
    expect(deps.hasher.calls.hash - hashesBefore).toBe(1);
  });

  it("issues a JWT with sub, id, email, is_admin and a 7-day lifetime", async () => {
    const { market } = setup();
    const { user, token } = await signUpAndLogIn(market, "ivan@example.com");
    const claims = decodePayload(token);
    expect(claims.sub).toBe(user.id);
    expect(claims.id).toBe(user.id);
    expect(claims.email).toBe("ivan@example.com");
    expect(claims.is_admin).toBe(false);
    expect(typeof claims.iat).toBe("number");
    expect(Number(claims.exp) - Number(claims.iat)).toBe(7 * 24 * 60 * 60);

    await market.admin.ensureAdmin({ email: "admin@example.com", password: PASSWORD });
    const admin = await market.auth.logIn({ email: "admin@example.com", password: PASSWORD });
    expect(decodePayload(admin.token).is_admin).toBe(true);
  });
});

describe("auth.authenticate", () => {
  it("is anonymous without credentials", async () => {
    const { market } = setup();
    await expect(market.auth.authenticate({})).resolves.toEqual({ kind: "anonymous" });
  });

  it("resolves a JWT and an API key to their user", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "jane@example.com");
    expect(actor).toMatchObject({ kind: "user", via: "jwt", user: { id: user.id } });
    const { secret, apiKey } = await market.apiKeys.create(actor, {});
    await expect(market.auth.authenticate({ apiKey: secret })).resolves.toMatchObject({
      kind: "user",
      via: "api_key",
      keyId: apiKey.id,
      user: { id: user.id },
    });
  });

  it("refuses malformed, unknown and deactivated API keys", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "kim@example.com");
    await expectCode(market.auth.authenticate({ apiKey: "psm_123" }), "unauthenticated");
    await expectCode(market.auth.authenticate({ apiKey: `PSM_${"a".repeat(64)}` }), "unauthenticated");
    await expectCode(market.auth.authenticate({ apiKey: "" }), "unauthenticated");
    await expectCode(market.auth.authenticate({ apiKey: `psm_${"a".repeat(64)}` }), "unauthenticated");

    const { secret, apiKey } = await market.apiKeys.create(actor, {});
    await market.apiKeys.deactivate(actor, { id: apiKey.id });
    await expectCode(market.auth.authenticate({ apiKey: secret }), "unauthenticated");
  });

  it("refuses the key and the JWT of a deleted user", async () => {
    const { market } = setup();
    const admin = (await logInAdmin(market)).actor;
    const { user, token, actor } = await signUpAndLogIn(market, "leo@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    await market.admin.deleteUser(admin, { userId: user.id });
    await expectCode(market.auth.authenticate({ apiKey: secret }), "unauthenticated");
    await expectCode(market.auth.authenticate({ bearer: token }), "unauthenticated");
  });

  it("refuses a JWT issued before a password reset", async () => {
    const { deps, market } = setup();
    const { token } = await signUpAndLogIn(market, "mia@example.com");
    await market.auth.requestPasswordReset({ email: "mia@example.com" });
    await market.mail.dispatchDue();
    const resetUrl = deps.mailer.ofKind("password_reset")[0]?.resetUrl ?? "";
    const resetToken = new URL(resetUrl).searchParams.get("token") ?? "";
    await market.auth.updatePassword({ token: resetToken, newPassword: "brand-new-password" });

    await expectCode(market.auth.authenticate({ bearer: token }), "unauthenticated");
    const fresh = await market.auth.logIn({ email: "mia@example.com", password: "brand-new-password" });
    await expect(market.auth.authenticate({ bearer: fresh.token })).resolves.toMatchObject({ kind: "user" });
  });

  it("refuses an expired JWT (7 days + 1 s) and accepts it just before", async () => {
    const { deps, market } = setup();
    const { token } = await signUpAndLogIn(market, "nia@example.com");
    deps.clock.advance(7 * DAY - SECOND);
    await expect(market.auth.authenticate({ bearer: token })).resolves.toMatchObject({ kind: "user" });
    deps.clock.advance(2 * SECOND);
    await expectCode(market.auth.authenticate({ bearer: token }), "unauthenticated");
  });

  it("refuses tampered, foreign-signed and malformed JWTs", async () => {
    const { deps, market } = setup();
    const { user, token } = await signUpAndLogIn(market, "omar@example.com");
    const [header, payload, signature] = token.split(".");
    const claims = decodePayload(token);
    const tampered = `${header}.${encodePart({ ...claims, is_admin: true })}.${signature}`;
    await expectCode(market.auth.authenticate({ bearer: tampered }), "unauthenticated");
    const badSignature = `${header}.${payload}.${(signature ?? "").slice(0, -4)}AAAA`;
    await expectCode(market.auth.authenticate({ bearer: badSignature }), "unauthenticated");

    const foreign = await createJwtTokenService("another-secret-that-is-long-enough!!", deps.clock).issue({
      sub: user.id,
      email: user.email,
      isAdmin: true,
      version: 0,
    });
    await expectCode(market.auth.authenticate({ bearer: foreign }), "unauthenticated");

    const unsigned = `${encodePart({ alg: "none", typ: "JWT" })}.${payload}.`;
    await expectCode(market.auth.authenticate({ bearer: unsigned }), "unauthenticated");
    await expectCode(market.auth.authenticate({ bearer: "not-a-jwt" }), "unauthenticated");
    await expectCode(market.auth.authenticate({ bearer: "" }), "unauthenticated");
  });

  it("reads admin rights from storage, not from the token", async () => {
    const { deps, market } = setup();
    const { user, token } = await signUpAndLogIn(market, "pia@example.com");
    await deps.repos.users.updateProfile(user.id, { isAdmin: true });
    const actor = await market.auth.authenticate({ bearer: token });
    expect(actor).toMatchObject({ kind: "user", user: { id: user.id, isAdmin: true } });
    expect(decodePayload(token).is_admin).toBe(false);
  });
});

describe("auth.me", () => {
  it("is null for an anonymous caller and the user for a JWT or an API key", async () => {
    const { market } = setup();
    await expect(market.auth.me({ kind: "anonymous" })).resolves.toBeNull();
    const { user, actor } = await signUpAndLogIn(market, "quinn@example.com");
    await expect(market.auth.me(actor)).resolves.toMatchObject({ id: user.id, email: "quinn@example.com" });
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    const viaKey = await market.auth.me(keyActor);
    expect(viaKey).toMatchObject({ id: user.id, activeListingsCount: 0 });
    expect(viaKey).not.toHaveProperty("passwordHash");
  });

  it("reports the derived active listing count", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "rosa@example.com");
    await market.listings.create(actor, { title: "T", description: "D", category: "cybersecurity" });
    await expect(market.auth.me(actor)).resolves.toMatchObject({ activeListingsCount: 1 });
  });
});

describe("users.updateDisplayName", () => {
  it("changes the caller's display name with a JWT and ignores other fields", async () => {
    const { deps, market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "sam@example.com");
    const updated = await market.users.updateDisplayName(
      actor,
      untyped({ displayName: "  Sam S.  ", email: "evil@example.com", isAdmin: true }),
    );
    expect(updated).toMatchObject({
      id: user.id,
      displayName: "Sam S.",
      email: "sam@example.com",
      isAdmin: false,
    });
    expect((await deps.repos.users.findById(user.id))?.displayName).toBe("Sam S.");
  });

  it("requires a JWT: an API-key actor and an anonymous caller are unauthenticated", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "tia@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expectCode(market.users.updateDisplayName(keyActor, { displayName: "X" }), "unauthenticated");
    await expectCode(
      market.users.updateDisplayName({ kind: "anonymous" }, { displayName: "X" }),
      "unauthenticated",
    );
  });

  it("bounds displayName to 1..100 characters", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "uma@example.com");
    await expectCode(market.users.updateDisplayName(actor, { displayName: "" }), "invalid_input");
    await expectCode(
      market.users.updateDisplayName(actor, { displayName: "x".repeat(101) }),
      "invalid_input",
    );
    await expectCode(market.users.updateDisplayName(actor, untyped({})), "invalid_input");
    await expect(
      market.users.updateDisplayName(actor, { displayName: "x".repeat(100) }),
    ).resolves.toHaveProperty("displayName", "x".repeat(100));
  });
});
