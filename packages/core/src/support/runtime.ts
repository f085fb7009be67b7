import type { Clock, RandomSource } from "../ports/clock.js";

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

// getRandomValues costs about 8 µs a call in Node whatever the length, and a busy round asks for
// thousands of 10- and 16-byte ids: drawing 4 KiB at a time and handing each caller its own copy
// of a slice never repeats a byte, as Node's randomUUID does with its own entropy cache.
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = 0;

/** Web Crypto's CSPRNG (globalThis.crypto: Node, Deno, Bun, browsers), drawn in 4 KiB blocks. */
export const webCryptoRandom: RandomSource = {
  bytes(length: number): Uint8Array {
    if (length > POOL_BYTES / 8) {
      const out = new Uint8Array(length);
      globalThis.crypto.getRandomValues(out);
      return out;
    }
    if (offset + length > pool.length) {
      pool = new Uint8Array(POOL_BYTES);
      globalThis.crypto.getRandomValues(pool);
      offset = 0;
    }
    const out = pool.slice(offset, offset + length);
    // Handed-out bytes are not kept: a later heap dump shows no secret issued before it.
    pool.fill(0, offset, offset + length);
    offset += length;
    return out;
  },
};
