import { afterAll, describe, expect, it } from "vitest";
import { createDocumentParser } from "../src/index.js";
import { loadCorpus, score } from "./support/corpus.js";
import { textToPdf } from "./support/make-pdf.js";

// The accuracy targets of the issue, asserted on the labelled corpus (the bench prints the
// same figures with timings, and adds the OCR'd flyers).
const TARGETS = { category: 0.9, price: 0.9, email: 0.98 };
const corpus = loadCorpus();
const parser = createDocumentParser();
afterAll(() => parser.close());

async function accuracy(toBytes: (text: string, index: number) => Promise<Uint8Array> | Uint8Array) {
  const hits = { category: 0, price: 0, email: 0 };
  const misses: string[] = [];
  for (const [index, doc] of corpus.entries()) {
    const parsed = await parser.parse({ bytes: await toBytes(doc.text, index) });
    const s = score(doc.label, parsed);
    hits.category += Number(s.category);
    hits.price += Number(s.price);
    hits.email += Number(s.email);
    if (!s.category || !s.price || !s.email) misses.push(doc.name);
  }
  const rate = (n: number) => n / corpus.length;
  return { category: rate(hits.category), price: rate(hits.price), email: rate(hits.email), misses };
}

describe("labelled corpus", () => {
  it("has at least 60 documents, five or more in each of the ten categories", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    const perCategory = new Map<string, number>();
    for (const doc of corpus)
      perCategory.set(doc.label.category, (perCategory.get(doc.label.category) ?? 0) + 1);
    expect(perCategory.size).toBe(10);
    for (const count of perCategory.values()) expect(count).toBeGreaterThanOrEqual(5);
  });

  it("meets the accuracy targets as plain text", async () => {
    const result = await accuracy((text) => new TextEncoder().encode(text));
    expect(result.category).toBeGreaterThanOrEqual(TARGETS.category);
    expect(result.price).toBeGreaterThanOrEqual(TARGETS.price);
    expect(result.email).toBeGreaterThanOrEqual(TARGETS.email);
  });

  it("meets the accuracy targets as generated PDFs, some of several pages with furniture", async () => {
    const result = await accuracy((text, i) =>
      textToPdf(text, i % 3 === 0 ? { linesPerPage: 8, furniture: "Provider brochure - confidential" } : {}),
    );
    expect(result.category).toBeGreaterThanOrEqual(TARGETS.category);
    expect(result.price).toBeGreaterThanOrEqual(TARGETS.price);
    expect(result.email).toBeGreaterThanOrEqual(TARGETS.email);
  });
});
