import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyCategory } from "../src/extract/category.js";
import { extractDescription } from "../src/extract/description.js";
import { extractEmail } from "../src/extract/email.js";
import { extractFields } from "../src/extract/extract-fields.js";
import { removeFurniture } from "../src/extract/furniture.js";
import { findMoney } from "../src/extract/money.js";
import { lines, normalizeText } from "../src/extract/normalize.js";
import { extractPrice } from "../src/extract/price.js";
import { extractTitle } from "../src/extract/title.js";
import { repairOcrText } from "../src/ocr/ocr-text.js";
import { checkInflateBudget } from "../src/pdf/inflate-guard.js";
import { sniffKind } from "../src/sniff.js";
import { HOSTILE_TEXTS } from "../src/testing/index.js";
import { decodeText } from "../src/text-decode.js";
import { growth } from "./support/growth.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const quietly = (work: () => unknown) => {
  try {
    return work();
  } catch {
    return null; // a refusal is an answer too: only the time it took matters here
  }
};

// Every guard and extractor that reads uploaded bytes or the text taken from them.
const READERS: Record<string, (text: string) => unknown> = {
  money: (t) => findMoney(t),
  price: (t) => extractPrice(t),
  description: (t) => extractDescription([lines(t)], null),
  title: (t) => extractTitle(lines(t)),
  email: (t) => extractEmail(t),
  category: (t) => classifyCategory(t.slice(0, 200), t),
  normalize: (t) => normalizeText(t),
  furniture: (t) => removeFurniture([t, t]),
  ocrRepair: (t) => repairOcrText(t),
  textDecode: (t) => quietly(() => decodeText(utf8(t))),
  sniff: (t) => sniffKind(utf8(t)),
  fields: (t) => extractFields({ pages: [t] }),
  inflateGuard: (t) =>
    checkInflateBudget(utf8(`%PDF-1.7\n${t}`), { budget: 1 << 20, maxPixels: 1e6 }).catch(() => null),
};

// Pieces hostile documents are made of: digit groups, separators, currency, at signs, brackets,
// keywords of the PDF syntax, line breaks and runs of whitespace.
const PIECES = [
  "1",
  "111",
  " ",
  ",",
  ".",
  "'",
  "-",
  "$",
  "€",
  "EUR",
  "k",
  "to",
  "@",
  "a",
  "x.",
  "-a",
  "[at]",
  "(at)",
  "[dot]",
  "\n",
  "\u2028",
  "\f",
  "*",
  "#",
  "Price:",
  "Contact:",
  "e.g.",
  "http://",
  "Page 1",
  "obj",
  "stream",
  "endstream",
  "<<",
  ">>",
  "/Filter",
  "/F#6c",
  "(",
  ")",
  "[",
  "]",
  "%",
  "5 0 R",
  "\u0001",
];
const shapes = fc.record({
  prefix: fc.array(fc.constantFrom(...PIECES), { maxLength: 3 }).map((p) => p.join("")),
  unit: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((p) => p.join("")),
});
const repeat = (shape: { prefix: string; unit: string }) => (n: number) =>
  shape.prefix + shape.unit.repeat(Math.ceil(n / shape.unit.length));

const N = 8_000;
// Linear work grows about 4 times from n to 4n (a little more with garbage collection); quadratic work 16 times.
const MAX_GROWTH = 10;

describe("every reader of uploaded text is linear in its input", () => {
  for (const [name, read] of Object.entries(READERS)) {
    it(`${name}: the known hostile shapes`, async () => {
      for (const [shape, make] of Object.entries(HOSTILE_TEXTS)) {
        const ratio = await growth(read, make, N);
        expect(ratio, `${name} on ${shape}`).toBeLessThan(MAX_GROWTH);
      }
    });

    it(`${name}: generated shapes`, async () => {
      await fc.assert(
        fc.asyncProperty(shapes, async (shape) => {
          const ratio = await growth(read, repeat(shape), N);
          expect(ratio, `${name} on ${JSON.stringify(shape)}`).toBeLessThan(MAX_GROWTH);
        }),
        { numRuns: 25 },
      );
    });
  }
});
