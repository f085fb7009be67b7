import type { NewListingInput } from "@psm/core";
import { describe, expect, it } from "vitest";
import { ANON, expectCode, type Marketplace, setup } from "../testing/use-case-kit.js";

const LISTING: NewListingInput = { title: "Audit", description: "Two weeks.", category: "cybersecurity" };

/** Follows the link of the `index`-th verification mail. */
async function verify(market: Marketplace, mailed: { verifyUrl: string }[], index: number) {
  const url = mailed[index]?.verifyUrl ?? "";
  await market.auth.verifyEmail({ token: new URL(url).searchParams.get("token") ?? "" });
}

describe("REQUIRE_VERIFIED_EMAIL", () => {
  it("refuses keys, listings and messages to an unproven address, and allows them once proven", async () => {
    const { deps, market, signUpAndLogIn } = setup({ requireVerifiedEmail: true });
    const author = await signUpAndLogIn("author@example.com");
    const buyer = await signUpAndLogIn("buyer@example.com");
    await market.mail.dispatchDue();
    const mailed = deps.mailer.ofKind("email_verification");

    await expectCode(market.apiKeys.create(author.actor, {}), "email_unverified");
    await expectCode(market.listings.create(author.actor, LISTING), "email_unverified");
    await verify(market, mailed, 0);
    // The JWT is read again on each request: a fresh actor sees the proof.
    const proven = await market.auth.authenticate({ bearer: author.token });
    await expect(market.apiKeys.create(proven, {})).resolves.toHaveProperty("secret");
    const listing = await market.listings.create(proven, LISTING);

    const message = { listingId: listing.id, receiverId: author.user.id, content: "Hello" };
    await expectCode(market.messages.send(buyer.actor, message), "email_unverified");
    await verify(market, mailed, 1);
    const buyerNow = await market.auth.authenticate({ bearer: buyer.token });
    await expect(market.messages.send(buyerNow, message)).resolves.toHaveProperty("id");
  });

  it("holds an anonymous legacy caller to the sender's proof", async () => {
    const { deps, market, signUpAndLogIn } = setup({ requireVerifiedEmail: true, securityMode: "legacy" });
    const author = await signUpAndLogIn("author@example.com");
    const sender = await signUpAndLogIn("sender@example.com");
    await market.mail.dispatchDue();
    await verify(market, deps.mailer.ofKind("email_verification"), 0);
    const listing = await market.listings.create(
      await market.auth.authenticate({ bearer: author.token }),
      LISTING,
    );
    const message = {
      listingId: listing.id,
      senderId: sender.user.id,
      receiverId: author.user.id,
      content: "Hello",
    };
    await expectCode(market.messages.send(ANON, message), "email_unverified");
  });

  it("is off by default: an unproven address may do all three", async () => {
    const { market, signUpAndLogIn } = setup();
    const author = await signUpAndLogIn("author@example.com");
    const buyer = await signUpAndLogIn("buyer@example.com");
    expect(author.user.emailVerified).toBe(false);
    await expect(market.apiKeys.create(author.actor, {})).resolves.toHaveProperty("secret");
    const listing = await market.listings.create(author.actor, LISTING);
    await expect(
      market.messages.send(buyer.actor, {
        listingId: listing.id,
        receiverId: author.user.id,
        content: "Hi",
      }),
    ).resolves.toHaveProperty("id");
  });
});
