import { describe, expect, it } from "vitest";
import { holdsEveryWord, searchWords, stemsOf } from "./full-text.js";
import { everyWordHeld } from "./words-held.js";

/** The answer everyWordHeld must give: holdsEveryWord over the union of the texts' stems. */
const oracle = (texts: string[], words: string[]) =>
  holdsEveryWord(new Set(texts.flatMap((text) => [...stemsOf(text)])), words);

/** A deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number) {
  let t = seed;
  return () => {
    t = (t + 0x6d2b79f5) | 0;
    let r = Math.imul(t ^ (t >>> 15), t | 1);
    r ^= r + Math.imul(r ^ (r >>> 7), r | 61);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = [
  "consulting",
  "consultant",
  "consult",
  "migration",
  "migrating",
  "data",
  "database",
  "Café",
  "cafe\u0301",
  "naïve",
  "ÉTUDE",
  "straße",
  "İstanbul",
  "3.5x",
  "kubernetes",
  "kube",
  "audit",
  "audits",
  "auditing",
  "design",
  "designer",
  "ux",
  "ai",
  "😀",
  "日本語",
  "a\u0301b",
  "x-\u0301y",
  "generalization",
  "general",
  "relational",
  "cloud",
  "security",
  "securities",
  "penetration",
];
const SEPARATORS = [" ", ", ", "-", "\n", " & ", "'", "\u00a0", "/", "\ud83d", ""];

describe("everyWordHeld", () => {
  it("answers as holdsEveryWord over the texts' stems, the last word as a prefix", () => {
    const held = everyWordHeld(["startup", "kube"]);
    expect(held(["Kubernetes consulting", "for startups"])).toBe(true);
    expect(held(["Kubernetes consulting"])).toBe(false);
    expect(everyWordHeld(["consultant"])(["Kubernetes consulting"])).toBe(true);
    expect(everyWordHeld(["kube", "consult"])(["Kubernetes consulting"])).toBe(false);
    expect(everyWordHeld(["cafe"])(["Cafe\u0301 crème"])).toBe(true);
    expect(everyWordHeld([])(["anything"])).toBe(true);
  });

  it("agrees with holdsEveryWord on 5,000 generated texts and queries", () => {
    const next = random(30);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
    const text = (words: number) =>
      Array.from({ length: words }, () => pick(VOCABULARY) + pick(SEPARATORS)).join("");
    let matched = 0;
    for (let i = 0; i < 5_000; i++) {
      const texts = [text(1 + Math.floor(next() * 4)), text(Math.floor(next() * 30))];
      const raw = text(1 + Math.floor(next() * 3));
      const words = searchWords(raw).slice(0, 8);
      // A last word as it is typed: cut short at times.
      const lastAt = words.length - 1;
      if (lastAt >= 0 && next() < 0.5) {
        const last = words[lastAt] as string;
        words[lastAt] = last.slice(0, Math.max(1, Math.ceil(last.length * next())));
      }
      const expected = oracle(texts, words);
      if (expected) matched += 1;
      expect(everyWordHeld(words)(texts), JSON.stringify({ texts, words })).toBe(expected);
    }
    // Both answers are well represented, so agreement means something.
    expect(matched).toBeGreaterThan(500);
    expect(matched).toBeLessThan(4_500);
  });

  it("one prepared check serves many rows without carrying one row's finds into the next", () => {
    const held = everyWordHeld(["audit", "cloud", "secur"]);
    expect(held(["Cloud audit", "security review"])).toBe(true);
    expect(held(["Cloud", "nothing else"])).toBe(false);
    expect(held(["audit", "no"])).toBe(false);
    expect(held(["", "securities cloud audits"])).toBe(true);
  });
});
