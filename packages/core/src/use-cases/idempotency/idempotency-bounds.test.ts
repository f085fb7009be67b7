import { describe, expect, it } from "vitest";
import {
  IDEMPOTENCY_MAX_BYTES_PER_CALLER,
  IDEMPOTENCY_MAX_KEYS_PER_CALLER,
  IDEMPOTENCY_TTL_MS,
} from "../../domain/idempotency.js";
import { MarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";
import { setup } from "../../testing/use-case-kit.js";
import { idempotencyId } from "./run-idempotent.js";

const MIB = 1024 * 1024;

/** Runs a keyed request whose kept answer is `answer`; answers the outcome or the refusal's code and wait. */
async function keep(s: ReturnType<typeof setup>, scope: string, key: string, answer: string) {
  try {
    return await s.market.idempotency.run(
      { scope, operation: "update_listing", key, fingerprint: key },
      async () => ({
        result: answer,
        commit: true,
        keep: true,
      }),
    );
  } catch (error) {
    if (!(error instanceof MarketplaceError)) throw error;
    return { code: error.code, retryAfter: error.retryAfter };
  }
}

describe("a caller's stored answers are bounded", () => {
  it(`by bytes: ${IDEMPOTENCY_MAX_BYTES_PER_CALLER / MIB} MiB, then 429 idempotency_limit_reached until the oldest lapses`, async () => {
    const s = setup();
    const answer = "x".repeat(MIB);
    const fit = IDEMPOTENCY_MAX_BYTES_PER_CALLER / MIB;
    for (let i = 0; i < fit; i++) {
      expect(await keep(s, "user:a", `k${i}`, answer)).toEqual({ replayed: false, result: answer });
      s.deps.clock.advance(1000);
    }
    const waitForFirst = IDEMPOTENCY_TTL_MS / 1000 - fit;
    expect(await keep(s, "user:a", "one-more", answer)).toEqual({
      code: "idempotency_limit_reached",
      retryAfter: waitForFirst,
    });
    // What the caller holds still replays; another caller has a bound of its own.
    expect(await keep(s, "user:a", "k0", answer)).toEqual({ replayed: true, result: answer });
    expect(await keep(s, "user:b", "k0", "{}")).toEqual({ replayed: false, result: "{}" });
    // Once the oldest answer lapsed, there is room for one more.
    s.deps.clock.advance(waitForFirst * 1000);
    expect(await keep(s, "user:a", "one-more", answer)).toEqual({ replayed: false, result: answer });
  });

  it(`by keys: ${IDEMPOTENCY_MAX_KEYS_PER_CALLER}, however small the answers`, async () => {
    const s = setup();
    // All but the last held through the store itself (a unit of work each would take minutes here).
    const now = s.deps.clock.now();
    const caller = sha256Hex("user:a");
    for (let i = 0; i < IDEMPOTENCY_MAX_KEYS_PER_CALLER - 1; i++) {
      const id = idempotencyId("user:a", ["update_listing"], `k${i}`);
      const lease = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
      await s.deps.repos.idempotency.claim(
        { id, caller, fingerprint: `k${i}`, owner: "o", leaseUntil: lease, expiresAt: lease },
        now,
      );
      await s.deps.repos.idempotency.complete(id, "o", "{}");
    }
    expect(await keep(s, "user:a", "last", "{}")).toEqual({ replayed: false, result: "{}" });
    expect(await keep(s, "user:a", "one-more", "{}")).toMatchObject({ code: "idempotency_limit_reached" });
    expect(await keep(s, "user:a", "k0", "{}")).toEqual({ replayed: true, result: "{}" });
  });
});
