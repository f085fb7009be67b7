import { foldSearchText } from "../domain/search-text.js";

// Search terms an attacker would send: every trigram common in the titles,
// the whole in none, so an index that intersects doclists walks them all and
// finds nothing to count. The contract holds every storage to a brute-force
// oracle on them; bench:storage times them at 1M listings.

/** mulberry32: a seeded generator, so a failing case names its seed and replays. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The reported shapes: eight common trigrams of English service titles that no title holds together. */
export const REPORTED_TERMS = [
  "ingconentwarmendevration",
  "tinconentwarmendevration",
  "ingentaticonionmentinity",
];

/**
 * A term of `length` code points in which every trigram occurs in `titles`
 * (folded), chosen with their frequency, so the common ones come first: a
 * walk over the corpus's trigram graph. Shorter when the walk finds no way on.
 */
export function trigramWalk(titles: readonly string[], length: number, next: () => number): string {
  const following = new Map<string, string[]>();
  const starts: string[] = [];
  for (const title of titles) {
    const chars = [...foldSearchText(title)];
    for (let i = 0; i + 3 <= chars.length; i++) {
      const pair = `${chars[i]}${chars[i + 1]}`;
      starts.push(pair);
      const list = following.get(pair) ?? [];
      list.push(chars[i + 2] as string);
      following.set(pair, list);
    }
  }
  if (starts.length === 0) return "";
  const chars = [...(starts[Math.floor(next() * starts.length)] as string)];
  while (chars.length < length) {
    const options = following.get(`${chars.at(-2)}${chars.at(-1)}`);
    if (!options) break;
    chars.push(options[Math.floor(next() * options.length)] as string);
  }
  return chars.slice(0, length).join("");
}

/** `unit` repeated to `length` code points. */
function repeated(unit: string, length: number): string {
  const chars = [...unit];
  return Array.from({ length }, (_, i) => chars[i % chars.length]).join("");
}

/**
 * Adversarial `search` terms for `titles`: the reported shapes, a trigram walk
 * of every length from 1 to `maxLength`, the same walk cut at each length
 * (prefixes of one long shape), and long repeated shapes of common units.
 */
export function adversarialTerms(titles: readonly string[], next: () => number, maxLength = 200): string[] {
  const terms = new Set<string>(REPORTED_TERMS);
  const long = trigramWalk(titles, maxLength, next);
  for (let length = 1; length <= maxLength; length++) {
    terms.add(trigramWalk(titles, length, next));
    if (length <= [...long].length) terms.add([...long].slice(0, length).join(""));
  }
  const common = [...foldSearchText(titles[0] ?? "ing")].slice(0, 3).join("");
  for (const unit of [common, `${common} `, "ing ", "a", "consulting "]) {
    for (const length of [7, 24, 60, maxLength]) terms.add(repeated(unit, length));
  }
  terms.delete("");
  return [...terms];
}

/**
 * Adversarial `q` word lists from `words` (each common in the listings): pairs
 * and longer runs of them, most of which no listing holds together.
 */
export function adversarialWords(words: readonly string[], next: () => number, count = 40): string[][] {
  const lists: string[][] = [];
  for (let i = 0; i < count; i++) {
    const size = 2 + Math.floor(next() * 7);
    lists.push(Array.from({ length: size }, () => words[Math.floor(next() * words.length)] as string));
  }
  return lists;
}
