import { describe, expect, it } from "vitest";
import { MarketplaceError } from "../../errors.js";
import { createMarketplace } from "../../marketplace.js";
import { sha256Hex } from "../../support/crypto.js";
import { createFakeHasher } from "../../testing/fakes/hasher.js";
import { createTestDeps } from "../../testing/index.js";
import { KIT_PASSWORD as PASSWORD } from "../../testing/use-case-kit.js";

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
    const deps = createTestDeps({ hasher });
    const market = createMarketplace(deps);
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
    const deps = createTestDeps();
    const market = createMarketplace(deps);
    await market.auth.signUp({ email: "known@example.com", password: PASSWORD });
    await market.auth.logIn({ email: "known@example.com", password: PASSWORD });
    await expect(market.auth.logIn({ email: "nobody@example.com", password: PASSWORD })).rejects.toThrow(
      MarketplaceError,
    );
    expect(deps.hasher.purposes).toEqual(["login", "login"]);
  });
});
