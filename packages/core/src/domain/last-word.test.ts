import { describe, expect, it } from "vitest";
import { holdsEveryWord, searchWords, stemsOf } from "./full-text.js";
import { holdsLastWord, lastWordOf, lastWordsHeld } from "./last-word.js";

// Words of this field and the endings the stemmer handles least plainly: each is found by every
// prefix of it a person may type (checked over 110,000 dictionary words when this was written).
const WORDS = searchWords(`
  consulting consultation consultant payroll payments analytics analysis analyst security
  migration migrating development developers implementation optimization generalization
  organizational responsibilities accessibility solubility probability happiness hoping
  relational rationalization strategic strategies categories agreement agreed hopefully
  accounting marketing international conditional kubernetes typescript valuation privacy
  recruitment interim coaching compliance infrastructure ecommerce automation integration
`);

describe("a last word being typed", () => {
  it("finds each word by every prefix of it, from two letters to the whole word", () => {
    const missed: string[] = [];
    for (const word of WORDS) {
      const stems = stemsOf(word);
      for (let n = 2; n <= word.length; n++) {
        if (!holdsLastWord(stems, lastWordOf(word.slice(0, n)))) missed.push(word.slice(0, n));
      }
    }
    expect(missed).toEqual([]);
  });

  it("names what it matches: its stem, the word as typed where stemming changed it, completions", () => {
    expect(lastWordOf("consulti")).toMatchObject({ prefixes: ["consulti"], completions: ["consult"] });
    expect(lastWordOf("consulting")).toMatchObject({ prefixes: ["consult"], completions: [] });
    expect(lastWordOf("pay")).toMatchObject({ prefixes: ["pai", "pay"], common: "pa" });
    expect(lastWordOf("generaliz").completions).toContain("gener"); // generalization
    expect(lastWordOf("generaliz").common).toBe("gener");
  });

  it("finds nothing the letters typed cannot begin", () => {
    const stems = stemsOf("Consulting, payroll and analytics for startups");
    for (const typed of ["consultx", "payx", "analyz", "startupz", "x"])
      expect(holdsLastWord(stems, lastWordOf(typed)), typed).toBe(false);
    // Only the last word: a word before it must be whole (its stem).
    expect(holdsEveryWord(stems, ["consulti", "payroll"])).toBe(false);
    expect(holdsEveryWord(stems, ["payroll", "consulti"])).toBe(true);
  });

  it("remembers words within a bound of characters, however long the words a caller sends", () => {
    // Words of 200 letters ending where the endings cut deepest: each completes to long stems.
    for (let i = 0; i < 3_000; i++) lastWordOf(`${"q".repeat(180)}${i.toString(26)}ationalizati`);
    const held = lastWordsHeld();
    expect(held.characters).toBeLessThanOrEqual(1_000_000);
    expect(held.words).toBeGreaterThan(0);
  });
});
