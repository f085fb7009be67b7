import { describe, expect, it } from "vitest";
import { porterStem } from "./porter-stem.js";

describe("porterStem", () => {
  it("gives the stems of Porter's published examples", () => {
    const cases: [string, string][] = [
      ["caresses", "caress"],
      ["ponies", "poni"],
      ["cats", "cat"],
      ["feed", "feed"],
      ["agreed", "agre"],
      ["plastered", "plaster"],
      ["motoring", "motor"],
      ["conflated", "conflat"],
      ["hopping", "hop"],
      ["filing", "file"],
      ["happy", "happi"],
      ["relational", "relat"],
      ["conditional", "condit"],
      ["digitizer", "digit"],
      ["hopefulness", "hope"],
      ["formalize", "formal"],
      ["electrical", "electr"],
      ["revival", "reviv"],
      ["adjustment", "adjust"],
      ["adoption", "adopt"],
      ["controll", "control"],
      ["rate", "rate"],
    ];
    for (const [word, stem] of cases) expect(porterStem(word), word).toBe(stem);
  });

  it("joins the word families search relies on", () => {
    for (const word of ["consult", "consults", "consulting", "consulted", "consultant"]) {
      expect(porterStem(word), word).toBe("consult");
    }
    expect(porterStem("penetration")).toBe("penetr");
    expect(porterStem("kubernetes")).toBe("kubernet");
  });

  it("leaves short words and words with other characters as they are", () => {
    expect(porterStem("as")).toBe("as");
    expect(porterStem("ai")).toBe("ai");
    expect(porterStem("abc123s")).toBe("abc123s");
    expect(porterStem("東京")).toBe("東京");
  });
});
