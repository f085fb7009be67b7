import { describe, expect, it } from "vitest";
import { MarketplaceError } from "../../errors.js";
import type { VerifyPurpose } from "../../ports/password-hasher.js";
import { createFakeHasher } from "../../testing/fakes/hasher.js";
import { createTestDeps } from "../../testing/index.js";
import { expectCode, KIT_PASSWORD, setup, setupWith } from "../../testing/use-case-kit.js";

describe("auth.changePassword and the hasher's lanes", () => {
  it("verifies the current password as a confirmation, not as a login", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("confirm@example.com");
    deps.hasher.purposes.length = 0;
    await market.auth.changePassword(actor, { currentPassword: KIT_PASSWORD, newPassword: "new-password" });
    expect(deps.hasher.purposes).toEqual(["confirm"]);
  });

  it("passes on a hasher's refusal (503) and keeps the password", async () => {
    const fake = createFakeHasher();
    let busy = false;
    const hasher = {
      ...fake,
      verify: (hash: string, password: string, purpose?: VerifyPurpose) =>
        busy && purpose === "confirm"
          ? Promise.reject(new MarketplaceError("service_unavailable", undefined, { retryAfter: 2 }))
          : fake.verify(hash, password, purpose),
    };
    const { deps, market, signUpAndLogIn } = setupWith(createTestDeps({ hasher }));
    const { user, actor } = await signUpAndLogIn("busy@example.com");
    const before = (await deps.repos.users.findById(user.id))?.passwordHash;

    busy = true;
    await expectCode(
      market.auth.changePassword(actor, { currentPassword: KIT_PASSWORD, newPassword: "new-password" }),
      "service_unavailable",
    );
    expect((await deps.repos.users.findById(user.id))?.passwordHash).toBe(before);
    // Logins are another lane: still served while confirmations are refused.
    await expect(
      market.auth.logIn({ email: "busy@example.com", password: KIT_PASSWORD }),
    ).resolves.toHaveProperty("token");
  });
});
