import { describe, expect, it } from "vitest";
import { createArgon2Hasher, OWASP_MIN } from "./password-hasher.js";

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
    const weak = createArgon2Hasher({ ...OWASP_MIN, memoryKiB: 8192, passes: 1 });
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
    const hasher = createArgon2Hasher(OWASP_MIN, 1);
    const hashes = await Promise.all(["a1b2c3", "d4e5f6", "g7h8i9"].map((pw) => hasher.hash(pw)));
    const checks = await Promise.all(
      hashes.map((hash, i) => hasher.verify(hash, ["a1b2c3", "d4e5f6", "g7h8i9"][i]!)),
    );
    expect(checks).toEqual([true, true, true]);
  });
});
