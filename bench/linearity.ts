/**
 * Time growth of every reader of uploaded text from n to 4n characters, on the known hostile
 * shapes and on generated ones: about 4 when linear, 16 when quadratic. It reports and never
 * fails: on a shared machine a clock is noise, so the test suite counts the work instead
 * (packages/adapter-documents/test/linearity.test.ts); this catches what a count cannot see,
 * backtracking inside one regex match.
 * Run: pnpm bench:linearity (node --conditions=psm-source bench/linearity.ts).
 */
import "./support/ts-resolve.ts";

const { HOSTILE_TEXTS } = await import("@psm/adapter-documents/testing");
const { READERS, repeat, sampleShapes } = await import(
  "../packages/adapter-documents/test/support/readers.js"
);
const { growth } = await import("../packages/adapter-documents/test/support/growth.js");

const N = 8_000;
const SUSPECT = 10;
const generated = sampleShapes(25, 27);
const rows: { reader: string; shapes: number; worst: string; growth: string; verdict: string }[] = [];
for (const [name, read] of Object.entries(READERS)) {
  let worst = { shape: "", ratio: 0 };
  const tried = [
    ...Object.entries(HOSTILE_TEXTS),
    ...generated.map((shape) => [JSON.stringify(shape), repeat(shape)] as const),
  ];
  for (const [shape, make] of tried) {
    const ratio = await growth(read, make, N);
    if (ratio > worst.ratio) worst = { shape, ratio };
  }
  rows.push({
    reader: name,
    shapes: tried.length,
    worst: worst.shape.slice(0, 40),
    growth: worst.ratio.toFixed(1),
    verdict: worst.ratio < SUSPECT ? "linear" : "look closer",
  });
}
console.log(`Time growth from n = ${N} to 4n (linear about 4, quadratic 16; above ${SUSPECT}: look closer)`);
console.table(rows);
