import type { RandomSource } from "../../ports/clock.js";

/**
 * A deterministic RandomSource (mulberry32): the same seed gives the same
 * bytes, so generated keys and tokens are reproducible. Never use outside tests.
 */
export function createSequentialRandom(seed = 0x5eed): RandomSource {
  let state = seed >>> 0;
  function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  return {
    bytes(length: number) {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) out[i] = next() & 0xff;
      return out;
    },
  };
}
