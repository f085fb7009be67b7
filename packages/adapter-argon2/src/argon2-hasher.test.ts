import { isMarketplaceError } from "@psm/core";
import { describe, expect, it } from "vitest";
import { createArgon2Hasher, OWASP_MIN } from "./argon2-hasher.js";

describe("argon2id hasher", () => {
  const hasher = createArgon2Hasher();

  it("stores a PHC string with OWASP's minimum parameters and verifies it", async () => {
    const hash = await hasher.hash("correct horse");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hasher.verify(hash, "correct horse")).toBe(true);
    expect(await hasher.verify(hash, "correct horsE")).toBe(false);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hasher.hash("same")).not.toBe(await hasher.hash("same"));
  });

  it("verifies old, weaker hashes and asks for them to be redone", async () => {
    const weak = createArgon2Hasher({ params: { ...OWASP_MIN, memoryKiB: 8192, passes: 1 } });
    const old = await weak.hash("pw123456");
    expect(await hasher.verify(old, "pw123456")).toBe(true);
    expect(hasher.needsRehash(old)).toBe(true);
  });

  it("answers false, not an exception, for malformed hashes", async () => {
    expect(await hasher.verify("not-a-hash", "x")).toBe(false);
    expect(await hasher.verify("$argon2id$v=19$m=1,t=1,p=1$$", "x")).toBe(false);
    expect(hasher.needsRehash("bcrypt$whatever")).toBe(true);
  });
});

describe("argon2id hasher concurrency", () => {
  it("still answers every hash and verify when calls exceed the concurrency cap", async () => {
    const hasher = createArgon2Hasher({ verifyConcurrency: 1, hashConcurrency: 1 });
    const hashes = await Promise.all(["a1b2c3", "d4e5f6", "g7h8i9"].map((pw) => hasher.hash(pw)));
    const checks = await Promise.all(
      hashes.map((hash, i) => hasher.verify(hash, ["a1b2c3", "d4e5f6", "g7h8i9"][i]!)),
    );
    expect(checks).toEqual([true, true, true]);
  });
});

describe("argon2id hasher lanes", () => {
  // Small parameters: the lanes are under test here, not argon2's cost.
  const small = { memoryKiB: 1024, passes: 1, parallelism: 1 };

  it("refuses a new hash beyond its queue at once: 503 service_unavailable with Retry-After", async () => {
    const hasher = createArgon2Hasher({
      params: small,
      hashConcurrency: 1,
      hashQueue: 2,
      retryAfterSeconds: 3,
    });
    // One runs, two wait, the fourth finds the queue full.
    const calls = ["pw-1", "pw-2", "pw-3", "pw-4"].map((pw) => hasher.hash(pw));
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected"]);
    const refusal = (settled[3] as PromiseRejectedResult).reason;
    expect(isMarketplaceError(refusal, "service_unavailable")).toBe(true);
    expect(refusal).toMatchObject({ retryAfter: 3 });
    // The queue drained: the next one is served, and what was served verifies.
    const again = await hasher.hash("pw-5");
    expect(await hasher.verify(again, "pw-5")).toBe(true);
    const first = (settled[0] as PromiseFulfilledResult<string>).value;
    expect(await hasher.verify(first, "pw-1")).toBe(true);
  });

  it("serves verifications in their own lane while a flood of new hashes waits", async () => {
    const hasher = createArgon2Hasher({
      params: small,
      verifyConcurrency: 1,
      hashConcurrency: 1,
      hashQueue: 100,
    });
    const stored = await hasher.hash("owner-password");
    let pending = 0;
    const flood = Array.from({ length: 60 }, (_, i) => {
      pending++;
      return hasher.hash(`flood-${i}`).finally(() => pending--);
    });
    // The login needs one derivation; the flood needs sixty, one after another.
    expect(await hasher.verify(stored, "owner-password")).toBe(true);
    expect(pending).toBeGreaterThan(30);
    expect(await hasher.verify(stored, "wrong-password")).toBe(false);
    await Promise.all(flood);
  });

  it("rejects a nonsensical concurrency or queue bound", () => {
    expect(() => createArgon2Hasher({ hashConcurrency: 0 })).toThrow(RangeError);
    expect(() => createArgon2Hasher({ verifyConcurrency: 1.5 })).toThrow(RangeError);
    expect(() => createArgon2Hasher({ confirmConcurrency: 0 })).toThrow(RangeError);
    expect(() => createArgon2Hasher({ verifyQueue: -1 })).toThrow(RangeError);
    expect(() => createArgon2Hasher({ confirmQueue: Number.NaN })).toThrow(RangeError);
  });
});
