import { describe, expect, it } from "vitest";
import { ANON, logInAdmin, setupMarketplace as setup, signUpAndLogIn } from "../testing/use-case-kit.js";

const NEW_LISTING = { title: "Audit", description: "Security audit", category: "legal-consulting" as const };

describe("listings.revision", () => {
  it("moves after every listing write, a view and a user's cascading delete included", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "a@example.com");
    const admin = await logInAdmin(market);
    const seen = [market.listings.revision()];
    const moved = () => {
      const now = market.listings.revision();
      const changed = now !== seen[seen.length - 1];
      seen.push(now);
      return changed;
    };

    const listing = await market.listings.create(actor, NEW_LISTING);
    expect(moved()).toBe(true);
    await market.listings.update(actor, { id: listing.id, price: 10 });
    expect(moved()).toBe(true);
    await market.listings.recordView({ id: listing.id });
    expect(moved()).toBe(true);
    await market.listings.delete(actor, { id: listing.id });
    expect(moved()).toBe(true);
    await market.listings.create(actor, NEW_LISTING);
    expect(moved()).toBe(true);
    await market.admin.deleteUser(admin.actor, { userId: user.id });
    expect(moved()).toBe(true);
  });

  it("stays put for reads and for writes that no listing read shows", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "b@example.com");
    const listing = await market.listings.create(actor, NEW_LISTING);
    const before = market.listings.revision();

    await market.listings.search(ANON, {});
    await market.listings.get({ id: listing.id });
    await market.apiKeys.create(actor, {});
    await market.users.updateDisplayName(actor, { displayName: "Bee" });

    expect(market.listings.revision()).toBe(before);
  });

  it("moves once a unit of work has ended, not while its writes are uncommitted", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "c@example.com");
    const before = market.listings.revision();
    let during = -1;
    await market.idempotency.run(
      { scope: user.id, method: "POST", route: "/api/listings", key: "k", fingerprint: "f" },
      async (m) => {
        await m.listings.create(actor, NEW_LISTING);
        during = market.listings.revision();
        return { answer: { status: 201, body: "{}" }, final: true };
      },
    );
    expect(during).toBe(before);
    expect(market.listings.revision()).not.toBe(before);
  });

  it("moves when a write fails, since it may have committed before failing", async () => {
    const { deps, market } = setup();
    const { actor } = await signUpAndLogIn(market, "d@example.com");
    const listing = await market.listings.create(actor, NEW_LISTING);
    deps.repos.listings.incrementViews = async () => {
      throw new Error("connection lost after commit");
    };
    const before = market.listings.revision();
    await expect(market.listings.recordView({ id: listing.id })).rejects.toThrow("connection lost");
    expect(market.listings.revision()).not.toBe(before);
  });
});
