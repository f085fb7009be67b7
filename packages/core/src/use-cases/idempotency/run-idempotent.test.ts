import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from "../../domain/idempotency.js";
import { isMarketplaceError, MarketplaceError } from "../../errors.js";
import type { Marketplace } from "../../marketplace.js";
import { sha256Hex } from "../../support/crypto.js";
import { expectCode, setup } from "../../testing/use-case-kit.js";
import { type IdempotentRequest, type IdempotentWork, idempotencyId } from "./run-idempotent.js";

const NEW_LISTING = {
  title: "Audit",
  description: "Security audit of your API",
  category: "strategic-consulting" as const,
  price: 900,
};

function keyed(scope: string, key = "key-1", fingerprint = "fp-1"): IdempotentRequest {
  return { scope, operation: "create_listing", key, fingerprint };
}

type Actor = Parameters<Marketplace["listings"]["create"]>[0];

/**
 * An edge's work: runs the use case; an expected failure becomes a result the
 * edge decides on (`refusal`: by default rolled back and not kept).
 */
function createListingWork(actor: Actor, refusal: Pick<IdempotentWork, "commit" | "keep"> = FORGET) {
  return async (m: Marketplace): Promise<IdempotentWork> => {
    try {
      const listing = await m.listings.create(actor, NEW_LISTING);
      return { result: `created ${listing.id}`, commit: true, keep: true };
    } catch (error) {
      if (!isMarketplaceError(error)) throw error;
      return { result: `refused ${error.code}`, ...refusal };
    }
  };
}
const FORGET = { commit: false, keep: false };

/** Work that writes (a display name and a listing), then decides as told. */
function writingWork(actor: Actor, result: string, decision: Pick<IdempotentWork, "commit" | "keep">) {
  return async (m: Marketplace): Promise<IdempotentWork> => {
    await m.users.updateDisplayName(actor, { displayName: `Written by ${result}` });
    await m.listings.create(actor, NEW_LISTING);
    return { result, ...decision };
  };
}

type Work = Parameters<Marketplace["idempotency"]["run"]>[1];

/** A signed-in caller, with its key-1 at hand and what the cases read back about it. */
async function caller(email: string) {
  const kit = setup();
  const { user, actor } = await kit.signUpAndLogIn(email);
  return {
    ...kit,
    user,
    actor,
    /** Runs `work` under keyed(user.id): the caller's key-1. */
    run: (work: Work) => kit.market.idempotency.run(keyed(user.id), work),
    /** The caller's listings, as a search shows them. */
    ownListings: async () => (await kit.market.listings.search(actor, { userId: user.id })).items,
    /** The caller's stored display name, which writingWork sets. */
    storedName: async () => (await kit.deps.repos.users.findById(user.id))?.displayName,
  };
}

describe("idempotency.run", () => {
  it("runs once per key: a retry replays the first result and writes nothing", async () => {
    const { actor, run, ownListings } = await caller("a@example.com");
    const first = await run(createListingWork(actor));
    const again = await run(createListingWork(actor));
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ replayed: true, result: first.result });
    expect((await ownListings()).map((l) => `created ${l.id}`)).toEqual([first.result]);
  });

  it("concurrent requests with one key create exactly one listing; the others are in flight or replays", async () => {
    const { actor, run, ownListings } = await caller("b@example.com");
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, () =>
        run(createListingWork(actor)).then(
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
    expect(await ownListings()).toHaveLength(1);
  });

  it("the same key with another request is idempotency_key_reused; another scope or operation is independent", async () => {
    const { market, signUpAndLogIn } = setup();
    const alice = await signUpAndLogIn("alice@example.com");
    const bob = await signUpAndLogIn("bob@example.com");
    await market.idempotency.run(keyed(alice.user.id), createListingWork(alice.actor));
    await expectCode(
      market.idempotency.run(keyed(alice.user.id, "key-1", "fp-other"), createListingWork(alice.actor)),
      "idempotency_key_reused",
    );
    const bobs = await market.idempotency.run(keyed(bob.user.id), createListingWork(bob.actor));
    expect(bobs.replayed).toBe(false);
    const otherOperation = { ...keyed(alice.user.id), operation: "send_message" };
    expect((await market.idempotency.run(otherOperation, createListingWork(alice.actor))).replayed).toBe(
      false,
    );
  });

  it("commit and keep: the writes land and the result is replayed", async () => {
    const { actor, run, ownListings, storedName } = await caller("kept@example.com");
    const work = writingWork(actor, "first", { commit: true, keep: true });
    expect(await run(work)).toEqual({ replayed: false, result: "first" });
    expect(await storedName()).toBe("Written by first");
    const again = writingWork(actor, "second", { commit: true, keep: true });
    expect(await run(again)).toEqual({ replayed: true, result: "first" });
    expect(await ownListings()).toHaveLength(1);
  });

  it("commit false: every write rolls back, and a kept result is still replayed", async () => {
    const { actor, run, ownListings, storedName } = await caller("d@example.com");
    const refused = writingWork(actor, "refused", { commit: false, keep: true });
    expect(await run(refused)).toEqual({ replayed: false, result: "refused" });
    expect(await storedName()).not.toBe("Written by refused");
    expect(await ownListings()).toHaveLength(0);
    const retry = writingWork(actor, "retry", { commit: true, keep: true });
    expect(await run(retry)).toEqual({ replayed: true, result: "refused" });
    expect(await ownListings()).toHaveLength(0);
  });

  it("keep false releases the key, so a corrected retry runs; with commit false nothing is written", async () => {
    const { actor, run, storedName } = await caller("c@example.com");
    const invalid = writingWork(actor, "invalid", { commit: false, keep: false });
    expect(await run(invalid)).toEqual({ replayed: false, result: "invalid" });
    expect(await storedName()).not.toBe("Written by invalid");
    const retried = await run(createListingWork(actor));
    expect(retried.replayed).toBe(false);
    expect(retried.result).toMatch(/^created /);
  });

  it("commit without keep: the writes land and the key is released with them", async () => {
    const { actor, run, ownListings, storedName } = await caller("e@example.com");
    const once = writingWork(actor, "unkept", { commit: true, keep: false });
    expect(await run(once)).toEqual({ replayed: false, result: "unkept" });
    expect(await storedName()).toBe("Written by unkept");
    const again = await run(createListingWork(actor));
    expect(again.replayed).toBe(false);
    expect(await ownListings()).toHaveLength(2);
  });

  it("a thrown fault releases the key and rolls back; the retry runs", async () => {
    const { actor, run, ownListings } = await caller("f@example.com");
    const crash = async (m: Marketplace): Promise<IdempotentWork> => {
      await m.listings.create(actor, NEW_LISTING);
      throw new Error("disk on fire");
    };
    await expect(run(crash)).rejects.toThrow("disk on fire");
    expect(await ownListings()).toHaveLength(0);
    const retried = await run(createListingWork(actor));
    expect(retried.replayed).toBe(false);
  });

  it("a claim whose request died is taken over after its lease; a key expires after 24 hours", async () => {
    const { deps, market, user, actor } = await caller("g@example.com");
    const request = keyed(user.id);
    // A request that claimed the key and died before its unit of work.
    const id = idempotencyId(request.scope, [request.operation], request.key);
    expect(await claimAsDead(deps, id)).toBe(true);
    const busy = await market.idempotency.run(request, createListingWork(actor)).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(MarketplaceError);
    expect(busy).toMatchObject({ code: "idempotency_in_flight", retryAfter: IDEMPOTENCY_LEASE_MS / 1000 });
    deps.clock.advance(IDEMPOTENCY_LEASE_MS);
    const taken = await market.idempotency.run(request, createListingWork(actor));
    expect(taken.replayed).toBe(false);

    deps.clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await market.maintenance.sweepExpired()).toEqual({
      idempotencyKeys: 1,
      sessions: 0,
      events: 0,
      deliveries: 0,
      oauth: 0,
    });
    expect((await market.idempotency.run(request, createListingWork(actor))).replayed).toBe(false);
  });

  it("a key stored under its former operation is honoured: replayed, reused, in flight, or free once dead", async () => {
    const { deps, market, user, actor, ownListings } = await caller("h@example.com");
    const former = ["POST", "/api/listings"];
    const request = { ...keyed(user.id), formerOperation: former };
    // As 1.2 stored it: the digest of [scope, method, route, key], the answer migrated into the result.
    const formerId = idempotencyId(request.scope, former, request.key);
    expect(formerId).toBe(sha256Hex(JSON.stringify([user.id, "POST", "/api/listings", "key-1"])));
    expect(await claimAsDead(deps, formerId)).toBe(true);

    const inFlight = market.idempotency.run(request, createListingWork(actor));
    await expectCode(inFlight, "idempotency_in_flight");
    await deps.repos.idempotency.complete(formerId, "dead", "kept by 1.2");
    expect(await market.idempotency.run(request, createListingWork(actor))).toEqual({
      replayed: true,
      result: "kept by 1.2",
    });
    await expectCode(
      market.idempotency.run({ ...request, fingerprint: "fp-other" }, createListingWork(actor)),
      "idempotency_key_reused",
    );
    expect(await ownListings()).toHaveLength(0);

    const dead = { ...request, key: "key-dead" };
    await claimAsDead(deps, idempotencyId(dead.scope, former, dead.key));
    deps.clock.advance(IDEMPOTENCY_LEASE_MS);
    expect((await market.idempotency.run(dead, createListingWork(actor))).replayed).toBe(false);
  });

  it("refuses malformed keys before anything runs", async () => {
    const { market, user, actor, ownListings } = await caller("i@example.com");
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
    expect(await ownListings()).toHaveLength(1);
  });
});

/** Claims `id` for the fingerprint keyed() sends, as a request that then died; true when it got it. */
async function claimAsDead(deps: ReturnType<typeof setup>["deps"], id: string): Promise<boolean> {
  const now = deps.clock.now();
  const claim = await deps.repos.idempotency.claim(
    {
      id,
      fingerprint: "fp-1",
      owner: "dead",
      leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    },
    now,
  );
  return claim.claimed;
}
