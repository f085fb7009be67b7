import { describe, expect, it } from "vitest";
import { expectCode, setup, untyped } from "../../testing/use-case-kit.js";

describe("users.updateDisplayName", () => {
  it("changes the caller's display name with a JWT and ignores other fields", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("sam@example.com");
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
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("tia@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expectCode(market.users.updateDisplayName(keyActor, { displayName: "X" }), "unauthenticated");
    await expectCode(
      market.users.updateDisplayName({ kind: "anonymous" }, { displayName: "X" }),
      "unauthenticated",
    );
  });

  it("bounds displayName to 1..100 characters", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("uma@example.com");
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
