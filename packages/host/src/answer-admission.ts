import { fnv1a } from "./fnv1a.js";

/**
 * Which answers the answer cache keeps: only those asked for before. A key read for the first time
 * is noted, not kept; asked again while it is still noted, its answer is kept. Traffic of answers
 * asked for once (distinct searches, deep pages) then neither evicts the answers asked for again
 * and again nor fills the cache's bytes with answers no one reuses: each would be promoted to the
 * old generation, kept up to the cache's byte bound, and collected later.
 *
 * A key is noted by a 30-bit hash of it (a collision admits an answer early, which costs nothing
 * but its place), in two generations of `capacity` hashes each: when the newer fills it becomes
 * the older and the older goes, so what is noted is bounded and a key is remembered across at
 * least `capacity` first reads of other keys; a key read again is noted anew, so one read after
 * every write is never forgotten. The notes survive writes that empty the cache, so an answer
 * asked for before a write is kept at its first read after it.
 */
export interface Admission {
  /** Whether an answer read for `key` now may be kept (it was read before); notes the key. */
  admits(key: string): boolean;
}

export function createAdmission(capacity: number): Admission {
  let newer = new Set<number>();
  let older = new Set<number>();
  return {
    admits(key) {
      // 30 bits: small integers, which a Set holds without allocating a number for each.
      const hash = fnv1a(key) & 0x3fffffff;
      if (newer.has(hash)) return true;
      const noted = older.has(hash);
      // Noted again in the newer generation, so a key read again and again is never forgotten.
      if (newer.size >= capacity) {
        older = newer;
        newer = new Set();
      }
      newer.add(hash);
      return noted;
    },
  };
}
