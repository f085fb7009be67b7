import { type Actor, createMarketplace, type Marketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { watchListingWrites } from "./listing-revision.js";

const NEW_LISTING = { title: "Audit", description: "Security audit", category: "legal-consulting" as const };
const PASSWORD = "secret-password";

/** A marketplace on watched repositories, composed as apps/server composes it. */
function setup() {
  const deps = createTestDeps();
  const watched = watchListingWrites(deps.repos);
  const market = createMarketplace({ ...deps, repos: watched.repos });
  return { deps, market, revision: watched.revision };
}

async function signedIn(market: Marketplace, email: string): Promise<{ id: string; actor: Actor }> {
  const user = await market.auth.signUp({ email, password: PASSWORD });
  const { token } = await market.auth.logIn({ email, password: PASSWORD });
  return { id: user.id, actor: await market.auth.authenticate({ bearer: token }) };
}

async function admin(market: Marketplace): Promise<Actor> {
  await market.admin.ensureAdmin({ email: "admin@example.com", password: PASSWORD });
  const { token } = await market.auth.logIn({ email: "admin@example.com", password: PASSWORD });
  return market.auth.authenticate({ bearer: token });
}

describe("watchListingWrites", () => {
  it("moves after every listing write, a user's cascading delete included", async () => {
    const { market, revision } = setup();
    const { id, actor } = await signedIn(market, "a@example.com");
    const adminActor = await admin(market);
    const seen = [revision.current()];
    const moved = () => {
      const now = revision.current();
      const changed = now !== seen[seen.length - 1];
      seen.push(now);
      return changed;
    };

    const listing = await market.listings.create(actor, NEW_LISTING);
    expect(moved()).toBe(true);
    await market.listings.update(actor, { id: listing.id, price: 10 });
    expect(moved()).toBe(true);
    await market.listings.delete(actor, { id: listing.id });
    expect(moved()).toBe(true);
    await market.listings.create(actor, NEW_LISTING);
    expect(moved()).toBe(true);
    await market.admin.deleteUser(adminActor, { userId: id });
    expect(moved()).toBe(true);
  });

  it("stays put for reads and for writes that no listing read shows", async () => {
    const { market, revision } = setup();
    const { actor } = await signedIn(market, "b@example.com");
    const listing = await market.listings.create(actor, NEW_LISTING);
    const before = revision.current();

    await market.listings.search({ kind: "anonymous" }, {});
    await market.listings.get({ id: listing.id });
    await market.apiKeys.create(actor, {});
    await market.users.updateDisplayName(actor, { displayName: "Bee" });

    expect(revision.current()).toBe(before);
  });

  it("counts a view on the viewed listing's mark, leaving the revision (and so every kept page) alone", async () => {
    const { market, revision } = setup();
    const { actor } = await signedIn(market, "v@example.com");
    const listing = await market.listings.create(actor, NEW_LISTING);
    const before = {
      revision: revision.current(),
      all: revision.views?.(),
      mark: revision.views?.(listing.id),
    };

    await market.listings.recordView({ id: listing.id });
    await market.listings.recordView({ id: listing.id });

    expect(revision.current()).toBe(before.revision);
    expect(revision.views?.()).toBe((before.all ?? 0) + 2);
    expect(revision.views?.(listing.id)).toBe((before.mark ?? 0) + 2);
  });

  it("moves once a unit of work has ended, not while its writes are uncommitted", async () => {
    const { market, revision } = setup();
    const { id, actor } = await signedIn(market, "c@example.com");
    const before = revision.current();
    let during = -1;
    await market.idempotency.run(
      { scope: id, operation: "create_listing", key: "k", fingerprint: "f" },
      async (m) => {
        await m.listings.create(actor, NEW_LISTING);
        during = revision.current();
        return { result: "{}", commit: true, keep: true };
      },
    );
    expect(during).toBe(before);
    expect(revision.current()).not.toBe(before);
  });

  it("moves when a write fails, since it may have committed before failing", async () => {
    const { deps, market, revision } = setup();
    const { actor } = await signedIn(market, "d@example.com");
    const listing = await market.listings.create(actor, NEW_LISTING);
    // Replaced on the repositories that were wrapped: the watch looks methods up at call time.
    const failing = async () => {
      throw new Error("connection lost after commit");
    };
    deps.repos.listings.update = failing;
    deps.repos.listings.incrementViews = failing;
    const before = { revision: revision.current(), mark: revision.views?.(listing.id) };
    await expect(market.listings.update(actor, { id: listing.id, price: 5 })).rejects.toThrow(
      "connection lost",
    );
    await expect(market.listings.recordView({ id: listing.id })).rejects.toThrow("connection lost");
    expect(revision.current()).not.toBe(before.revision);
    expect(revision.views?.(listing.id)).toBe((before.mark ?? 0) + 1);
  });
});
