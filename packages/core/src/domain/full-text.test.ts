import { describe, expect, it } from "vitest";
import { holdsEveryWord, relevanceRank, searchWords, stemsOf } from "./full-text.js";

describe("full-text words", () => {
  it("cuts at anything not a letter or digit, lower-cases and drops accents", () => {
    expect(searchWords("  Café-CRÈME, naïve & Müller's 3.5x! ")).toEqual([
      "cafe",
      "creme",
      "naive",
      "muller",
      "s",
      "3",
      "5x",
    ]);
    expect(searchWords("Cafe\u0301")).toEqual(["cafe"]);
    expect(searchWords("%%% ___")).toEqual([]);
  });

  it("requires every word, the last one also as a prefix of a stem", () => {
    const stems = stemsOf("Kubernetes consulting for startups");
    expect(holdsEveryWord(stems, ["consultant"])).toBe(true);
    expect(holdsEveryWord(stems, ["kube"])).toBe(true);
    expect(holdsEveryWord(stems, ["kube", "consult"])).toBe(false);
    expect(holdsEveryWord(stems, ["startup", "kube"])).toBe(true);
    expect(holdsEveryWord(stems, ["startup", "zebra"])).toBe(false);
  });

  it("ranks a title match 0, a match that needs the description 1, no match null", () => {
    const listing = { title: "Pentest offer", description: "Penetration testing for SaaS" };
    expect(relevanceRank(listing, ["pentest"])).toBe(0);
    expect(relevanceRank(listing, ["pentest", "saas"])).toBe(1);
    expect(relevanceRank(listing, ["penetration"])).toBe(1);
    expect(relevanceRank(listing, ["audit"])).toBeNull();
  });
});
