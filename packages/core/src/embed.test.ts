import {
  createJwtTokenService,
  createMarketplace,
  createUuidV7Generator,
  type Deps,
  isMarketplaceError,
  type Mail,
  type Mailer,
  systemClock,
  webCryptoRandom,
} from "@psm/core";
import { createFakeHasher, createMemoryStorage } from "@psm/core/testing";
import { describe, expect, it } from "vitest";

/**
 * Embeds the core as another Node service would: it builds Deps from the
 * package's own factories, its storage and its mailer, and calls the bound use
 * cases directly (no HTTP in between).
 */
function embed() {
  const outbox: Mail[] = [];
  const mailer: Mailer = {
    async send(mail) {
      outbox.push(mail);
    },
  };
  const storage = createMemoryStorage();
  const deps: Deps = {
    repos: storage.repositories,
    mailer,
    documents: {
      async parse() {
        throw new Error("not used in this flow");
      },
    },
    hasher: createFakeHasher(),
    tokens: createJwtTokenService("an-embedding-service-secret-of-32+-bytes", systemClock),
    clock: systemClock,
    ids: createUuidV7Generator(webCryptoRandom),
    random: webCryptoRandom,
    settings: {
      securityMode: "strict",
      slots: { personal: 5, business: 50, admin: 1000 },
      publicUrl: "https://market.example.com",
      requireVerifiedEmail: false,
    },
  };
  return { market: createMarketplace(deps), outbox, storage };
}

describe("embedding the core in a Node service", () => {
  it("runs sign-up, listing, search, messaging and a password reset end to end", async () => {
    const { market, outbox, storage } = embed();
    await storage.migrate();

    // Sign up and log in.
    const author = await market.auth.signUp({
      email: "Author@Example.com",
      password: "first-password",
      displayName: "Ada",
    });
    expect(author).toMatchObject({ email: "author@example.com", displayName: "Ada", isAdmin: false });
    const login = await market.auth.logIn({ email: "author@example.com", password: "first-password" });
    const authorActor = await market.auth.authenticate({ bearer: login.token });
    expect(authorActor).toMatchObject({ kind: "user", user: { id: author.id } });

    // Create a listing and find it.
    const listing = await market.listings.create(authorActor, {
      title: "Zero-trust network review",
      description: "A three-week review of your network with a written report.",
      category: "cybersecurity",
      price: "7500",
    });
    expect(listing).toMatchObject({ userId: author.id, price: 7500, status: "active" });
    const found = await market.listings.search(
      { kind: "anonymous" },
      { search: "ZERO-TRUST", category: "cybersecurity" },
    );
    expect(found.items.map((l) => l.id)).toEqual([listing.id]);
    await market.listings.recordView({ id: listing.id });
    await expect(market.listings.get({ id: listing.id })).resolves.toMatchObject({ views: 1 });

    // Another user messages the author.
    await market.auth.signUp({ email: "buyer@example.com", password: "buyer-password" });
    const buyerLogin = await market.auth.logIn({ email: "buyer@example.com", password: "buyer-password" });
    const buyer = await market.auth.authenticate({ bearer: buyerLogin.token });
    const message = await market.messages.send(buyer, {
      listingId: listing.id,
      receiverId: author.id,
      content: "Could you start in May?",
    });
    const inbox = await market.messages.list(authorActor, {});
    expect(inbox.items.map((m) => m.id)).toEqual([message.id]);
    expect(inbox.items[0]).toMatchObject({ content: "Could you start in May?", isAgent: false });

    // Reset the author's password through the mailed link.
    await market.auth.requestPasswordReset({ email: "AUTHOR@example.com" });
    expect(outbox).toHaveLength(0);
    // The round also sends the two sign-ups' verification mails.
    await expect(market.mail.dispatchDue()).resolves.toEqual({ sent: 3, retried: 0, failed: 0 });
    const resets = outbox.filter((mail) => mail.kind === "password_reset");
    expect(resets).toHaveLength(1);
    const resetUrl = resets[0]?.resetUrl ?? "";
    expect(resets[0]?.to).toBe("author@example.com");
    expect(resetUrl.startsWith("https://market.example.com/reset-password?token=")).toBe(true);
    const token = new URL(resetUrl).searchParams.get("token") ?? "";
    await expect(market.auth.checkResetToken({ token })).resolves.toBe(true);
    await market.auth.updatePassword({ token, newPassword: "second-password" });

    // The new password works, the old one and the old JWT do not.
    const fresh = await market.auth.logIn({ email: "author@example.com", password: "second-password" });
    await expect(market.auth.authenticate({ bearer: fresh.token })).resolves.toMatchObject({
      kind: "user",
      user: { id: author.id },
    });
    const oldPassword = await market.auth
      .logIn({ email: "author@example.com", password: "first-password" })
      .catch((e: unknown) => e);
    expect(isMarketplaceError(oldPassword, "invalid_credentials")).toBe(true);
    const oldJwt = await market.auth.authenticate({ bearer: login.token }).catch((e: unknown) => e);
    expect(isMarketplaceError(oldJwt, "unauthenticated")).toBe(true);
    const reused = await market.auth
      .updatePassword({ token, newPassword: "third-password" })
      .catch((e: unknown) => e);
    expect(isMarketplaceError(reused, "reset_token_invalid")).toBe(true);

    // The listing and the conversation are untouched by the reset.
    const freshActor = await market.auth.authenticate({ bearer: fresh.token });
    const after = await market.messages.list(freshActor, {});
    expect(after.items.map((m) => m.id)).toEqual([message.id]);
    expect((await market.listings.search({ kind: "anonymous" }, { userId: author.id })).items).toHaveLength(
      1,
    );
    await storage.close();
  });
});
