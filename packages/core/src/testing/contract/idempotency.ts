import { describe, expect, it } from "vitest";
import type { IdempotencyRecord } from "../../ports/idempotency-store.js";
import { sha256Hex } from "../../support/crypto.js";
import { at, type ContractContext, HOUR, listingOf, MINUTE, NO_LIMIT, seedUser, T0 } from "./context.js";

function record(name: string, owner: string, overrides: Partial<IdempotencyRecord> = {}) {
  return {
    id: sha256Hex(name),
    fingerprint: sha256Hex(`${name} request`),
    owner,
    leaseUntil: at(MINUTE),
    expiresAt: at(24 * HOUR),
    ...overrides,
  };
}

/** Cases of IdempotencyStore. */
export function idempotencyCases(ctx: ContractContext): void {
  describe("idempotency keys", () => {
    it("usage counts a caller's live keys, running ones included, and the UTF-8 bytes of their results", async () => {
      const store = ctx.repos().idempotency;
      const [mine, theirs] = [sha256Hex("caller-a"), sha256Hex("caller-b")];
      expect(await store.usage(mine, T0)).toEqual({ keys: 0, bytes: 0, nextExpiry: null });
      const early = record("u1", "o", { expiresAt: at(HOUR) });
      const later = record("u2", "o", { expiresAt: at(2 * HOUR) });
      const running = record("u3", "o", { expiresAt: at(3 * HOUR) });
      for (const claim of [early, later, running]) await store.claim({ ...claim, caller: mine }, T0);
      await store.claim({ ...record("u4", "o"), caller: theirs }, T0);
      await store.claim(record("u5", "o"), T0);
      await store.complete(early.id, "o", "é".repeat(10));
      await store.complete(later.id, "o", "x".repeat(1000));
      expect(await store.usage(mine, T0)).toEqual({ keys: 3, bytes: 1020, nextExpiry: at(HOUR) });
      // A key that lapsed counts no more; one taken over after its lease counts afresh.
      expect(await store.usage(mine, at(HOUR))).toEqual({ keys: 2, bytes: 1000, nextExpiry: at(2 * HOUR) });
      await store.claim({ ...record("u2", "o2", { expiresAt: at(5 * HOUR) }), caller: mine }, at(3 * HOUR));
      expect(await store.usage(mine, at(2 * HOUR))).toEqual({ keys: 2, bytes: 0, nextExpiry: at(3 * HOUR) });
      expect((await store.usage(theirs, T0)).keys).toBe(1);
    });

    it("the first claim wins; a second sees it running, then finished with its result", async () => {
      const store = ctx.repos().idempotency;
      const first = record("k1", "owner-a");
      expect(await store.claim(first, T0)).toEqual({ claimed: true });
      const running = await store.claim(record("k1", "owner-b"), T0);
      expect(running).toEqual({ claimed: false, record: { ...first, result: null } });
      expect(await store.complete(first.id, "owner-b", "{}")).toBe(false);
      // Opaque text, kept byte for byte (JSON inside JSON, non-ASCII, an empty string all come back as given).
      const result = '{"status":201,"body":"{\\"listing\\":{\\"title\\":\\"Ünïcode ✓\\"}}"}';
      expect(await store.complete(first.id, "owner-a", result)).toBe(true);
      expect(await store.complete(first.id, "owner-a", result)).toBe(false);
      expect(await store.claim(record("k1", "owner-c"), at(2 * MINUTE))).toEqual({
        claimed: false,
        record: { ...first, result },
      });
      const empty = record("k1-empty", "owner-a");
      await store.claim(empty, T0);
      await store.complete(empty.id, "owner-a", "");
      expect(await store.find(empty.id, T0)).toEqual({ ...empty, result: "" });
    });

    it("a running claim whose lease ended is taken over; the old owner can then neither complete nor release it", async () => {
      const store = ctx.repos().idempotency;
      const first = record("k2", "dead");
      await store.claim(first, T0);
      const late = record("k2", "retry", { leaseUntil: at(2 * MINUTE) });
      expect(await store.claim(late, at(MINUTE - 1))).toMatchObject({ claimed: false });
      expect(await store.claim(late, at(MINUTE))).toEqual({ claimed: true });
      expect(await store.complete(first.id, "dead", "{}")).toBe(false);
      expect(await store.release(first.id, "dead")).toBe(false);
      expect(await store.complete(first.id, "retry", "{}")).toBe(true);
    });

    it("release frees a running claim for a retry, never a finished one", async () => {
      const store = ctx.repos().idempotency;
      const a = record("k3", "one");
      await store.claim(a, T0);
      expect(await store.release(a.id, "one")).toBe(true);
      expect(await store.release(a.id, "one")).toBe(false);
      expect(await store.claim(record("k3", "two"), T0)).toEqual({ claimed: true });
      await store.complete(a.id, "two", "[]");
      expect(await store.release(a.id, "two")).toBe(false);
      expect(await store.claim(record("k3", "three"), T0)).toMatchObject({ claimed: false });
    });

    it("find answers a record as stored, running or finished, and nothing once it expired", async () => {
      const store = ctx.repos().idempotency;
      const a = record("k6", "one", { expiresAt: at(HOUR) });
      expect(await store.find(a.id, T0)).toBeNull();
      await store.claim(a, T0);
      expect(await store.find(a.id, T0)).toEqual({ ...a, result: null });
      await store.complete(a.id, "one", "kept");
      expect(await store.find(a.id, at(HOUR - 1))).toEqual({ ...a, result: "kept" });
      expect(await store.find(a.id, at(HOUR))).toBeNull();
      // Finding claims nothing.
      expect(await store.find(record("k7", "x").id, T0)).toBeNull();
      expect(await store.claim(record("k7", "x"), T0)).toEqual({ claimed: true });
    });

    it("expired records are claimable again and swept", async () => {
      const store = ctx.repos().idempotency;
      const a = record("k4", "one", { expiresAt: at(HOUR) });
      await store.claim(a, T0);
      await store.complete(a.id, "one", "{}");
      expect(await store.deleteExpired(at(HOUR - 1))).toBe(0);
      expect(await store.claim(record("k4", "two"), at(HOUR))).toEqual({ claimed: true });
      await store.claim(record("k5", "x", { expiresAt: at(HOUR) }), T0);
      expect(await store.deleteExpired(at(HOUR))).toBe(1);
      expect(await store.claim(record("k5", "y"), T0)).toEqual({ claimed: true });
    });

    it("a result stored or a claim released in a unit of work lands with its writes, or not at all", async () => {
      const repos = ctx.repos();
      const store = repos.idempotency;
      const user = await seedUser(repos);
      const kept = record("uow-kept", "one");
      const released = record("uow-released", "one");
      await store.claim(kept, T0);
      await store.claim(released, T0);
      const rolledBack = repos.unitOfWork.run(async (tx) => {
        await tx.listings.insertWithinSlots(listingOf(user, 1), NO_LIMIT);
        expect(await tx.idempotency.complete(kept.id, "one", "done")).toBe(true);
        expect(await tx.idempotency.release(released.id, "one")).toBe(true);
        throw new Error("roll back");
      });
      await expect(rolledBack).rejects.toThrow("roll back");
      expect(await store.find(kept.id, T0)).toEqual({ ...kept, result: null });
      expect(await store.find(released.id, T0)).toEqual({ ...released, result: null });

      const listing = listingOf(user, 2);
      await repos.unitOfWork.run(async (tx) => {
        await tx.listings.insertWithinSlots(listing, NO_LIMIT);
        await tx.idempotency.complete(kept.id, "one", "done");
        await tx.idempotency.release(released.id, "one");
      });
      expect(await repos.listings.findById(listing.id)).not.toBeNull();
      expect(await store.find(kept.id, T0)).toEqual({ ...kept, result: "done" });
      expect(await store.find(released.id, T0)).toBeNull();
    });

    it("of racing claims for one key exactly one wins", async () => {
      if (!ctx.concurrency) return;
      const store = ctx.repos().idempotency;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.claim(record("race", `owner-${i}`), T0)),
      );
      expect(outcomes.filter((o) => o.claimed)).toHaveLength(1);
    });
  });
}
