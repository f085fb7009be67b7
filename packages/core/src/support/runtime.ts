import type { Clock, RandomSource } from "../ports/clock.js";

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** Web Crypto's CSPRNG (globalThis.crypto: Node, Deno, Bun, browsers). */
export const webCryptoRandom: RandomSource = {
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    globalThis.crypto.getRandomValues(out);
    return out;
  },
};
