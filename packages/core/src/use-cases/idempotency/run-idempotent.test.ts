import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from "../../domain/idempotency.js";
import { type ErrorCode, isMarketplaceError, MarketplaceError } from "../../errors.js";
import type { Marketplace } from "../../marketplace.js";
import { sha256Hex } from "../../support/crypto.js";
import { expectCode, setupMarketplace as setup, signUpAndLogIn } from "../../testing/use-case-kit.js";
import type { IdempotentRequest, IdempotentWork } from "./run-idempotent.js";

const NEW_LISTING = {
  title: "Audit",
  description: "Security audit of your API",
  category: "strategic-consulting" as const,
  price: 900,
};

function keyed(scope: string, key = "key-1", fingerprint = "fp-1"): IdempotentRequest {
  return { scope, method: "POST", route: "/api/listings", key, fingerprint };
}

/** An edge's work: runs the use case and turns an expected failure into a stored answer. */
function createListingWork(
  actor: Parameters<Marketplace["listings"]["create"]>[0],
  statusOf: Partial<Record<ErrorCode, number>> = {},
) {
  return async (m: Marketplace): Promise<IdempotentWork> => {
    try {
      const listing = await m.listings.create(actor, NEW_LISTING);
      return { answer: { status: 201, body: JSON.stringify({ id: listing.id }) }, final: true };
    } catch (error) {
      if (!isMarketplaceError(error)) throw error;
      const status = statusOf[error.code] ?? 400;
      return { answer: { status, body: JSON.stringify({ code: error.code }) }, final: status !== 400 };
    }
  };
}

describe("idempotency.run", () => {
  it("runs once per key: a retry replays the first answer and writes nothing", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "a@example.com");
    const first = await market.idempotency.run(keyed(user.id), createListingWork(actor));
    const again = await market.idempotency.run(keyed(user.id), createListingWork(actor));
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ replayed: true, answer: first.answer });
    const page = await market.listings.search(actor, { userId: user.id });
    expect(page.items.map((l) => l.id)).toEqual([JSON.parse(first.answer.body).id]);
  });

  it("concurrent requests with one key create exactly one listing; the others are in flight or replays", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "b@example.com");
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, () =>
        market.idempotency.run(keyed(user.id), createListingWork(actor)).then(
          (outcome) => outcome,
          (error: unknown) => (isMarketplaceError(error) ? error.code : error),
        ),
      ),
    );
    const fresh = outcomes.filter(
      (o) => typeof o === "object" && o !== null && "replayed" in o && !o.replayed,
    );
    expect(fresh).toHaveLength(1);
    for (const o of outcomes) {
      if (typeof o === "string") expect(o).toBe("idempotency_in_flight");
    }
    expect((await market.listings.search(actor, { userId: user.id })).items).toHaveLength(1);
  });

  it("the same key with another request is idempotency_key_reused; another scope or route is independent", async () => {
    const { market } = setup();
    const alice = await signUpAndLogIn(market, "alice@example.com");
    const bob = await signUpAndLogIn(market, "bob@example.com");
    await market.idempotency.run(keyed(alice.user.id), createListingWork(alice.actor));
    await expectCode(
      market.idempotency.run(keyed(alice.user.id, "key-1", "fp-other"), createListingWork(alice.actor)),
      "idempotency_key_reused",
    );
    const bobs = await market.idempotency.run(keyed(bob.user.id), createListingWork(bob.actor));
    expect(bobs.replayed).toBe(false);
    const otherRoute = { ...keyed(alice.user.id), route: "/api/messages" };
    expect((await market.idempotency.run(otherRoute, createListingWork(alice.actor))).replayed).toBe(false);
  });

  it("an answer that is not final (400) is not kept, so a corrected retry runs", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "c@example.com");
    const invalid = async (): Promise<IdempotentWork> => ({
      answer: { status: 400, body: "bad" },
      final: false,
    });
    expect((await market.idempotency.run(keyed(user.id), invalid)).answer.status).toBe(400);
    const retried = await market.idempotency.run(keyed(user.id), createListingWork(actor));
    expect(retried).toMatchObject({ replayed: false, answer: { status: 201 } });
  });

  it("a kept failure (403) is replayed and its writes are rolled back", async () => {
    const { deps, market } = setup({ slots: { personal: 0, business: 50, admin: 1000 } });
    const { user, actor } = await signUpAndLogIn(market, "d@example.com");
    const work = createListingWork(actor, { listing_limit_reached: 403 });
    const first = await market.idempotency.run(keyed(user.id), work);
    expect(first.answer).toEqual({ status: 403, body: JSON.stringify({ code: "listing_limit_reached" }) });
    expect(await market.idempotency.run(keyed(user.id), work)).toEqual({
      replayed: true,
      answer: first.answer,
    });

    const sneaky = async (m: Marketplace): Promise<IdempotentWork> => {
      await m.users.updateDisplayName(actor, { displayName: "Written then refused" });
      return { answer: { status: 404, body: "gone" }, final: true };
    };
    await market.idempotency.run(keyed(user.id, "key-2"), sneaky);
    expect((await deps.repos.users.findById(user.id))?.displayName).not.toBe("Written then refused");
  });

  it("a thrown fault releases the key and rolls back; the retry runs", async () => {
    const { deps, market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "e@example.com");
    const crash = async (m: Marketplace): Promise<IdempotentWork> => {
      await m.listings.create(actor, NEW_LISTING);
      throw new Error("disk on fire");
    };
    await expect(market.idempotency.run(keyed(user.id), crash)).rejects.toThrow("disk on fire");
    expect((await market.listings.search(actor, { userId: user.id })).items).toHaveLength(0);
    const retried = await market.idempotency.run(keyed(user.id), createListingWork(actor));
    expect(retried.replayed).toBe(false);
    expect(deps.repos.idempotency).toBeDefined();
  });

  it("a claim whose request died is taken over after its lease; a key expires after 24 hours", async () => {
    const { deps, market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "f@example.com");
    const now = deps.clock.now();
    const request = keyed(user.id);
    // A request that claimed the key and died before its unit of work.
    const stuck = await deps.repos.idempotency.claim(
      {
        id: idOf(request),
        fingerprint: request.fingerprint,
        owner: "dead",
        leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      },
      now,
    );
    expect(stuck.claimed).toBe(true);
    const busy = await market.idempotency.run(request, createListingWork(actor)).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(MarketplaceError);
    expect(busy).toMatchObject({ code: "idempotency_in_flight", retryAfter: IDEMPOTENCY_LEASE_MS / 1000 });
    deps.clock.advance(IDEMPOTENCY_LEASE_MS);
    const taken = await market.idempotency.run(request, createListingWork(actor));
    expect(taken.replayed).toBe(false);

    deps.clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await market.maintenance.sweepExpired()).toEqual({ idempotencyKeys: 1, sessions: 0 });
    expect((await market.idempotency.run(request, createListingWork(actor))).replayed).toBe(false);
  });

  it("refuses malformed keys before anything runs", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "g@example.com");
    for (const key of ["", "x".repeat(256), "has space", "tab\there", "ünï", "\u0000"]) {
      await expectCode(
        market.idempotency.run(keyed(user.id, key), createListingWork(actor)),
        "invalid_idempotency_key",
      );
    }
    await expect(
      market.idempotency.run(keyed(user.id, "~".repeat(255)), createListingWork(actor)),
    ).resolves.toMatchObject({
      replayed: false,
    });
    expect((await market.listings.search(actor, { userId: user.id })).items).toHaveLength(1);
  });
});

/** The stored id of a keyed request (the digest runIdempotent keys its record by). */
function idOf(request: IdempotentRequest): string {
  return sha256Hex(JSON.stringify([request.scope, request.method, request.route, request.key]));
}
