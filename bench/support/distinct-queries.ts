/**
 * Searches no answer cache can reuse (issue 30): thousands of distinct queries built from the
 * seed's vocabulary as people type them (title phrases, single words, fragments, words that match
 * nothing), taken in turn from one counter by every connection, so no two requests of a round ask
 * the same thing until the whole set has gone by (beyond the cache's 1 s and 1,024 answers).
 */
import { CATEGORY_VALUES } from "@psm/core";
import { seededRandom } from "@psm/core/testing";
import { WORDS } from "./listing-data.js";

/** How many distinct queries each row rotates over. */
export const DISTINCT_QUERIES = 12_000;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * `count` distinct query texts in a shuffled order: a tenth made-up words that match nothing, the
 * rest phrases of two or three title words, single words, fragments and a word with a fragment
 * ("cloud secu"), as typed.
 */
export function distinctTexts(count: number, seed: number): string[] {
  const next = seededRandom(seed);
  const word = () => WORDS[Math.floor(next() ** 1.5 * WORDS.length)] ?? "data";
  const fragment = () => {
    const whole = word();
    return whole.slice(0, 3 + Math.floor(next() * Math.max(1, whole.length - 3)));
  };
  const found = new Set<string>();
  const matching = count - Math.floor(count / 10);
  for (let guard = 0; found.size < matching && guard < count * 50; guard++) {
    const roll = next();
    if (roll < 0.35) found.add(`${word()} ${word()}`);
    else if (roll < 0.5) found.add(word());
    else if (roll < 0.7) found.add(`${word()} ${word()} ${word()}`);
    else if (roll < 0.8) found.add(fragment());
    else found.add(`${word()} ${fragment()}`);
  }
  const none = new Set<string>();
  while (none.size < count - found.size) {
    none.add(
      Array.from({ length: 5 + Math.floor(next() * 5) }, () => LETTERS[Math.floor(next() * 26)]).join(""),
    );
  }
  const texts = [...found, ...none];
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [texts[i], texts[j]] = [texts[j] as string, texts[i] as string];
  }
  return texts;
}

/** Paths for `param` (q or search), each with a category (all ten in turn) when `withCategory`. */
export function distinctPaths(param: "q" | "search", withCategory: boolean, seed: number): string[] {
  return distinctTexts(DISTINCT_QUERIES, seed).map((text, i) => {
    const query = `/api/listings?${param}=${encodeURIComponent(text)}`;
    return withCategory ? `${query}&category=${CATEGORY_VALUES[i % CATEGORY_VALUES.length]}` : query;
  });
}

/** The next path of `paths` on every call, round and round: one counter for all connections. */
export function rotation(paths: readonly string[]): () => string {
  let at = 0;
  return () => {
    const path = paths[at] ?? "/";
    at = (at + 1) % paths.length;
    return path;
  };
}
