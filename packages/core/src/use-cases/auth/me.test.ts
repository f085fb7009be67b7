import { describe, expect, it } from "vitest";
import { setup } from "../../testing/use-case-kit.js";

describe("auth.me", () => {
  it("is null for an anonymous caller and the user for a JWT or an API key", async () => {
    const { market, signUpAndLogIn } = setup();
    await expect(market.auth.me({ kind: "anonymous" })).resolves.toBeNull();
    const { user, actor } = await signUpAndLogIn("quinn@example.com");
    await expect(market.auth.me(actor)).resolves.toMatchObject({ id: user.id, email: "quinn@example.com" });
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    const viaKey = await market.auth.me(keyActor);
    expect(viaKey).toMatchObject({ id: user.id, activeListingsCount: 0 });
    expect(viaKey).not.toHaveProperty("passwordHash");
  });

  it("reports the derived active listing count", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("rosa@example.com");
    await market.listings.create(actor, { title: "T", description: "D", category: "cybersecurity" });
    await expect(market.auth.me(actor)).resolves.toMatchObject({ activeListingsCount: 1 });
  });
});
