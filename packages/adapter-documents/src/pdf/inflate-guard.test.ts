import { type ErrorCode, isMarketplaceError } from "@psm/core";
import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { textToPdf } from "../../test/support/make-pdf.js";
import { deflateBombPdf } from "../../test/support/pdf-bombs.js";
import { BOMB_SPELLINGS, bombPdf, onePage, streamKeywordFlood } from "../testing/index.js";
import { checkInflateBudget } from "./inflate-guard.js";

const MiB = 1024 * 1024;
const bounds = (budget: number) => ({ budget, maxPixels: 40_000_000 });

/** The code the guard refuses `bytes` with, or "ok". */
async function verdict(bytes: Uint8Array, budget = MiB): Promise<ErrorCode | "ok"> {
  try {
    await checkInflateBudget(bytes, bounds(budget));
    return "ok";
  } catch (error) {
    if (isMarketplaceError(error)) return error.code;
    throw error;
  }
}

/** The text pdf.js reads from a PDF's first page: proof that a spelling is one pdf.js decodes. */
async function pdfjsText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  const content = await (await pdf.getPage(1)).getTextContent();
  await pdf.loadingTask.destroy();
  return content.items.map((item) => ("str" in item ? item.str : "")).join("");
}

describe("checkInflateBudget", () => {
  it("passes ordinary PDFs (object streams and content are Flate-compressed)", async () => {
    expect(await verdict(await textToPdf("Hello\n".repeat(500)))).toBe("ok");
    expect(await verdict(await deflateBombPdf(512 * 1024))).toBe("ok");
  });

  it("catches a content stream that inflates past the budget, without inflating all of it", async () => {
    const bomb = await deflateBombPdf(16 * MiB);
    expect(bomb.byteLength).toBeLessThan(100_000);
    expect(await verdict(bomb)).toBe("payload_too_large");
    expect(await verdict(bomb, 32 * MiB)).toBe("ok");
  });

  it.each(BOMB_SPELLINGS)("follows the %s spelling, which pdf.js decodes", async (spelling) => {
    // Small: pdf.js reads the page through this spelling, so the guard must follow it too.
    const small = await bombPdf(64 * 1024, spelling);
    expect(await pdfjsText(small)).toContain("Bomb");
    expect(await verdict(small)).toBe("ok");
    expect(await verdict(await bombPdf(8 * MiB, spelling))).toBe("payload_too_large");
  });

  it("counts every stream of the file together", async () => {
    const data = extractData(await bombPdf(300 * 1024, "direct"));
    const stream = (num: number) => ({ num, value: "<< /Filter /FlateDecode >>", data });
    expect(await verdict(onePage(stream(4)))).toBe("ok");
    const extra = Array.from({ length: 8 }, (_, i) => stream(10 + i));
    expect(await verdict(onePage(stream(4), extra))).toBe("payload_too_large");
  });

  it("holds an image to its declared size: past it, the main budget pays", async () => {
    const pixels = extractData(await bombPdf(4 * MiB, "direct"));
    const image = (width: number) =>
      onePage({ num: 4, value: "<< >>", data: new Uint8Array(0) }, [
        {
          num: 9,
          value: `<< /Type /XObject /Subtype /Image /Width ${width} /Height 1024 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>`,
          data: pixels,
        },
      ]);
    expect(await verdict(image(4096), MiB)).toBe("ok"); // 4 MiB of pixels, as declared
    expect(await verdict(image(16), MiB)).toBe("payload_too_large"); // declares 16 KiB, inflates to 4 MiB
  });

  it("reads a file of a million stream keywords within its work counter (16 × its size): linear by count", async () => {
    // Every byte the pass reads is charged to a counter that refuses the file (400) past 16 ×
    // its size plus a constant: a read that looked back from each keyword would be refused here.
    // Counted, not timed (pnpm bench:linearity reports times).
    expect(await verdict(streamKeywordFlood(1024 * 1024))).toBe("ok");
    expect(await verdict(streamKeywordFlood(4 * 1024 * 1024), 64 * MiB)).toBe("ok");
  });

  it("refuses, as too tangled to check, streams whose lengths make them overlap", async () => {
    // Each stream's /Length reaches the last `endstream`: read as pdf.js would, every stream
    // holds all the ones after it, and checking them would take quadratic time.
    const count = 2000;
    const heads = Array.from({ length: count }, (_, i) => `${i + 1} 0 obj\n<< /Filter /FlateDecode /Length `);
    let tail = "";
    const pieces: string[] = [];
    for (let i = count - 1; i >= 0; i--) {
      const body = `x\nendstream\nendobj\n${tail}`;
      pieces[i] =
        `${heads[i]}${String(body.length - "\nendstream\nendobj\n".length).padStart(9, "0")} >>\nstream\n${body}`;
      tail = pieces[i] ?? "";
    }
    const file = Buffer.from(`%PDF-1.4\n${tail}`, "latin1");
    expect(await verdict(file)).toBe("unsupported_document");
  });
});

/** The data of object 4 (the page content) of a PDF written by bombPdf. */
function extractData(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf).toString("latin1");
  const start = text.indexOf("stream\n", text.indexOf("4 0 obj")) + 7;
  return pdf.slice(start, text.indexOf("\nendstream", start));
}
