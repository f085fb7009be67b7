import { describe, expect, it } from "vitest";
import { extractFields, hasText } from "./extract-fields.js";

describe("extractFields", () => {
  it("runs every rule over the cleaned pages and scales confidence by how well the text was read", () => {
    const pages = ["# Bookkeeping\nMonthly accounting in Xero.\nFrom £290 per month\nbooks@tidy.co.uk\n1"];
    const sure = extractFields({ pages });
    expect(sure).toMatchObject({ title: "Bookkeeping", category: "financial-services", price: 290 });
    expect(sure.contactEmail).toBe("books@tidy.co.uk");
    expect(sure.description).not.toMatch(/\n1$/);
    const ocr = extractFields({ pages, readConfidence: 0.5 });
    expect(ocr.fields.price.confidence).toBeCloseTo(sure.fields.price.confidence / 2, 1);
  });

  it("uses the title as description when there is no other text", () => {
    expect(extractFields({ pages: ["Just a heading"] }).description).toBe("Just a heading");
  });

  // A pattern that backtracks on these inputs takes minutes: the test's timeout is the bound,
  // not a clock reading that a slow machine could trip.
  it("stays linear on adversarial text: long digit runs, separators, @ chains, no spaces", {
    timeout: 20_000,
  }, () => {
    const inputs = [
      "1".repeat(300_000),
      "1,000".repeat(60_000),
      "$".repeat(300_000),
      "a@".repeat(150_000),
      `${"a".repeat(299_990)}@b.io`,
      "€1 ".repeat(100_000),
      "word ".repeat(60_000),
    ];
    for (const text of inputs) expect(extractFields({ pages: [text] }).category).toBeTruthy();
  });
});

describe("hasText", () => {
  it("needs a few letters, not just digits and symbols", () => {
    expect(hasText(["12 34 -- 56"])).toBe(false);
    expect(hasText(["", "Hi there"])).toBe(true);
  });
});
