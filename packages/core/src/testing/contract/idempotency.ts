import { describe, expect, it } from "vitest";
import type { IdempotencyRecord } from "../../ports/idempotency-store.js";
import { sha256Hex } from "../../support/crypto.js";
import { at, type ContractContext, HOUR, MINUTE, T0 } from "./context.js";

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
    it("the first claim wins; a second sees it running, then finished with its answer", async () => {
      const store = ctx.repos().idempotency;
      const first = record("k1", "owner-a");
      expect(await store.claim(first, T0)).toEqual({ claimed: true });
      const running = await store.claim(record("k1", "owner-b"), T0);
      expect(running).toEqual({ claimed: false, record: { ...first, answer: null } });
      expect(await store.complete(first.id, "owner-b", { status: 201, body: "{}" })).toBe(false);
      const answer = { status: 201, body: '{"listing":{"title":"Ünïcode ✓"}}' };
      expect(await store.complete(first.id, "owner-a", answer)).toBe(true);
      expect(await store.complete(first.id, "owner-a", answer)).toBe(false);
      expect(await store.claim(record("k1", "owner-c"), at(2 * MINUTE))).toEqual({
        claimed: false,
        record: { ...first, answer },
      });
    });

    it("a running claim whose lease ended is taken over; the old owner can then neither complete nor release it", async () => {
      const store = ctx.repos().idempotency;
      const first = record("k2", "dead");
      await store.claim(first, T0);
      const late = record("k2", "retry", { leaseUntil: at(2 * MINUTE) });
      expect(await store.claim(late, at(MINUTE - 1))).toMatchObject({ claimed: false });
      expect(await store.claim(late, at(MINUTE))).toEqual({ claimed: true });
      expect(await store.complete(first.id, "dead", { status: 201, body: "{}" })).toBe(false);
      await store.release(first.id, "dead");
      expect(await store.complete(first.id, "retry", { status: 201, body: "{}" })).toBe(true);
    });

    it("release frees a running claim for a retry, never a finished one", async () => {
      const store = ctx.repos().idempotency;
      const a = record("k3", "one");
      await store.claim(a, T0);
      await store.release(a.id, "one");
      expect(await store.claim(record("k3", "two"), T0)).toEqual({ claimed: true });
      await store.complete(a.id, "two", { status: 200, body: "[]" });
      await store.release(a.id, "two");
      expect(await store.claim(record("k3", "three"), T0)).toMatchObject({ claimed: false });
    });

    it("expired records are claimable again and swept", async () => {
      const store = ctx.repos().idempotency;
      const a = record("k4", "one", { expiresAt: at(HOUR) });
      await store.claim(a, T0);
      await store.complete(a.id, "one", { status: 201, body: "{}" });
      expect(await store.deleteExpired(at(HOUR - 1))).toBe(0);
      expect(await store.claim(record("k4", "two"), at(HOUR))).toEqual({ claimed: true });
      await store.claim(record("k5", "x", { expiresAt: at(HOUR) }), T0);
      expect(await store.deleteExpired(at(HOUR))).toBe(1);
      expect(await store.claim(record("k5", "y"), T0)).toEqual({ claimed: true });
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
