import { describe, expect, it } from "vitest";
import { isMarketplaceError, MarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";
import { createFakeHasher } from "../../testing/fakes/hasher.js";
import { createTestDeps } from "../../testing/index.js";
import {
  expectCode,
  KIT_PASSWORD as PASSWORD,
  setup,
  setupWith,
  untyped,
} from "../../testing/use-case-kit.js";
import { decodePayload } from "./jwt-test-support.js";

describe("auth.logIn with a hasher too busy for new hashes", () => {
  it("still logs in with an old hash, and leaves the upgrade to a later login", async () => {
    const fake = createFakeHasher();
    let busy = false;
    const hasher = {
      ...fake,
      hash: (password: string) =>
        busy
          ? Promise.reject(new MarketplaceError("service_unavailable", undefined, { retryAfter: 2 }))
          : fake.hash(password),
    };
    const { deps, market } = setupWith(createTestDeps({ hasher }));
    const user = await market.auth.signUp({ email: "old@example.com", password: PASSWORD });
    const old = `old$${sha256Hex(PASSWORD)}`;
    await deps.repos.users.setPasswordHash(user.id, old, { revokeTokens: false });

    busy = true;
    await expect(market.auth.logIn({ email: "old@example.com", password: PASSWORD })).resolves.toHaveProperty(
      "token",
    );
    expect((await deps.repos.users.findById(user.id))?.passwordHash).toBe(old);

    busy = false;
    await market.auth.logIn({ email: "old@example.com", password: PASSWORD });
    expect((await deps.repos.users.findById(user.id))?.passwordHash).not.toBe(old);
  });
});

describe("auth.logIn and the hasher's lanes", () => {
  it("verifies as a login, for a known account and against the dummy hash for an unknown one", async () => {
    const { deps, market } = setup();
    await market.auth.signUp({ email: "known@example.com", password: PASSWORD });
    await market.auth.logIn({ email: "known@example.com", password: PASSWORD });
    await expect(market.auth.logIn({ email: "nobody@example.com", password: PASSWORD })).rejects.toThrow(
      MarketplaceError,
    );
    expect(deps.hasher.purposes).toEqual(["login", "login"]);
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
    const { deps, market, signUpAndLogIn } = setup();
    const { user, token } = await signUpAndLogIn("hana@example.com");
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
    const { market, signUpAndLogIn } = setup();
    const { user, token } = await signUpAndLogIn("ivan@example.com");
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
