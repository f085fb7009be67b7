import { describe, expect, it } from "vitest";
import { webCryptoRandom } from "./runtime.js";

describe("webCryptoRandom", () => {
  it("never hands out the same bytes twice, across many pool refills", () => {
    const seen = new Set<string>();
    // 20,000 × 16 bytes is about 80 refills of the 4 KiB pool.
    for (let i = 0; i < 20_000; i++) {
      const bytes = webCryptoRandom.bytes(16);
      expect(bytes.length).toBe(16);
      seen.add(Buffer.from(bytes).toString("hex"));
    }
    expect(seen.size).toBe(20_000);
  });

  it("gives each caller its own copy: changing one answer changes no other", () => {
    const first = webCryptoRandom.bytes(32);
    const copy = Uint8Array.from(first);
    first.fill(0);
    const second = webCryptoRandom.bytes(32);
    expect(first.buffer).not.toBe(second.buffer);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(false);
    expect(copy.some((byte) => byte !== 0)).toBe(true);
  });

  it("answers every length, large ones directly, with bytes that are not all zero", () => {
    for (const length of [0, 1, 10, 511, 512, 513, 4096, 65_536]) {
      const bytes = webCryptoRandom.bytes(length);
      expect(bytes.length).toBe(length);
      if (length >= 16) expect(bytes.some((byte) => byte !== 0)).toBe(true);
    }
  });

  it("draws bytes that look uniform (each byte value within a wide band over 256 KiB)", () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 16_384; i++) for (const byte of webCryptoRandom.bytes(16)) counts[byte]! += 1;
    // 1,024 expected per value; ±25 % is over 7 standard deviations.
    for (const count of counts) {
      expect(count).toBeGreaterThan(768);
      expect(count).toBeLessThan(1280);
    }
  });
});
