/** Every reader of uploaded text, and the hostile shapes they are tried on (linearity test and bench). */
import fc from "fast-check";
import { classifyCategory } from "../../src/extract/category.js";
import { extractDescription } from "../../src/extract/description.js";
import { extractEmail } from "../../src/extract/email.js";
import { extractFields } from "../../src/extract/extract-fields.js";
import { removeFurniture } from "../../src/extract/furniture.js";
import { findMoney } from "../../src/extract/money.js";
import { lines, normalizeText } from "../../src/extract/normalize.js";
import { extractPrice } from "../../src/extract/price.js";
import { extractTitle } from "../../src/extract/title.js";
import { repairOcrText } from "../../src/ocr/ocr-text.js";
import { checkInflateBudget } from "../../src/pdf/inflate-guard.js";
import { sniffKind } from "../../src/sniff.js";
import { decodeText } from "../../src/text-decode.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const quietly = (work: () => unknown) => {
  try {
    return work();
  } catch {
    return null; // a refusal is an answer too: only the work it took matters here
  }
};

// Every guard and extractor that reads uploaded bytes or the text taken from them.
export const READERS: Record<string, (text: string) => unknown> = {
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
/** Generated hostile shapes: a short prefix and a repeated unit. */
export const shapes = fc.record({
  prefix: fc.array(fc.constantFrom(...PIECES), { maxLength: 3 }).map((p) => p.join("")),
  unit: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((p) => p.join("")),
});
/** A shape made about `n` characters long. */
export const repeat = (shape: { prefix: string; unit: string }) => (n: number) =>
  shape.prefix + shape.unit.repeat(Math.ceil(n / shape.unit.length));

/** `count` generated shapes, the same ones for the same seed (for the benchmark, which has no runner). */
export const sampleShapes = (count: number, seed: number) => fc.sample(shapes, { numRuns: count, seed });
