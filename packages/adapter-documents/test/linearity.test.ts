import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOSTILE_TEXTS } from "../src/testing/index.js";
import { READERS, repeat, shapes } from "./support/readers.js";
import { regexWork } from "./support/regex-work.js";

const N = 8_000;
// Linear work grows 4 times from n to 4n (plus a constant); work that scans the text again for
// each part of it grows 16 times. The count is exact, so the bound needs no slack for noise.
const MAX_GROWTH = 5;

/**
 * How much more the engine scans at 4n than at n. When that step grows too much, the next one
 * (4n to 16n) is counted too and the smaller growth counts: super-linear work grows at every
 * step, while a bound the input crosses once (a description's 20,000 characters) shows at one.
 */
async function growth(read: (text: string) => unknown, make: (n: number) => string): Promise<number> {
  const [a, b] = [await regexWork(() => read(make(N))), await regexWork(() => read(make(4 * N)))];
  const first = b / Math.max(a, N / 100);
  if (first < MAX_GROWTH) return first;
  const c = await regexWork(() => read(make(16 * N)));
  return Math.min(first, c / Math.max(b, N / 100));
}

// Time ratios (which catch backtracking inside one match as well) are reported by
// `pnpm bench:linearity`: a clock is no test on a shared machine.
describe("every reader of uploaded text does work linear in its input (counted, not timed)", () => {
  for (const [name, read] of Object.entries(READERS)) {
    it(`${name}: the known hostile shapes`, async () => {
      for (const [shape, make] of Object.entries(HOSTILE_TEXTS)) {
        expect(await growth(read, make), `${name} on ${shape}`).toBeLessThan(MAX_GROWTH);
      }
    });

    it(`${name}: generated shapes`, async () => {
      await fc.assert(
        fc.asyncProperty(shapes, async (shape) => {
          expect(await growth(read, repeat(shape)), `${name} on ${JSON.stringify(shape)}`).toBeLessThan(
            MAX_GROWTH,
          );
        }),
        { numRuns: 25 },
      );
    });
  }

  it("counts what a quadratic reader would do", async () => {
    // Each line searched again over the rest of the text: the shape the count exists to catch.
    const quadratic = (text: string) =>
      text.split("\n").map((_, i, all) => /zzz/.test(all.slice(i).join("\n")));
    expect(await growth(quadratic, (n) => "a line\n".repeat(n / 7))).toBeGreaterThan(12);
  });
});
