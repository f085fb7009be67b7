import { describe, expect, it } from "vitest";
import { textToPdf } from "../../test/support/make-pdf.js";
import { deflateBombPdf } from "../../test/support/pdf-bombs.js";
import { exceedsInflateBudget } from "./inflate-guard.js";

const MiB = 1024 * 1024;

describe("exceedsInflateBudget", () => {
  it("passes an ordinary PDF (object streams and content are Flate-compressed)", async () => {
    expect(exceedsInflateBudget(await textToPdf("Hello\n".repeat(500)), MiB)).toBe(false);
  });

  it("catches a content stream that inflates past the budget, without inflating all of it", async () => {
    const bomb = await deflateBombPdf(16 * MiB);
    expect(bomb.byteLength).toBeLessThan(100_000);
    expect(exceedsInflateBudget(bomb, MiB)).toBe(true);
    expect(exceedsInflateBudget(bomb, 32 * MiB)).toBe(false);
  });

  it("follows chained Flate filters", async () => {
    expect(exceedsInflateBudget(await deflateBombPdf(8 * MiB, 2), MiB)).toBe(true);
  });
});
