import { describe, expect, it } from "vitest";
import { isPageNumber, removeFurniture } from "./furniture.js";
import { normalizeText, truncate } from "./normalize.js";

describe("normalizeText", () => {
  it("unifies line endings, drops control and zero-width characters, collapses spaces", () => {
    expect(normalizeText("a\r\nb\rc\u0007 \u200b d\t\te  \n  f")).toBe("a\nb\nc d e\nf");
  });

  it("bounds the text before any other work", () => {
    expect(normalizeText("x".repeat(50), 10)).toBe("x".repeat(10));
  });

  it("truncates at a word boundary when one is near", () => {
    expect(truncate("alpha beta gamma", 12)).toBe("alpha beta");
    expect(truncate("short", 12)).toBe("short");
  });
});

describe("page furniture", () => {
  it("recognises page-number lines", () => {
    for (const line of ["3", "- 3 -", "Page 3", "page 3 of 12", "3 / 12", "p. 4"])
      expect(isPageNumber(line)).toBe(true);
    expect(isPageNumber("3 workshops")).toBe(false);
  });

  it("removes running headers and footers that repeat on most pages, keeps body lines", () => {
    const page = (n: number, body: string) =>
      `ACME Consulting - Brochure 2025\n${body}\nacme.example - page ${n}\n${n}`;
    const pages = [page(1, "Strategy work"), page(2, "Our fees"), page(3, "Our team")];
    expect(removeFurniture(pages)).toEqual([["Strategy work"], ["Our fees"], ["Our team"]]);
  });

  it("keeps a one-page document's lines, page numbers aside", () => {
    expect(removeFurniture(["Title\nBody text\n1"])).toEqual([["Title", "Body text"]]);
  });
});
