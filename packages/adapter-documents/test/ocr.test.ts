import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDocumentParser, encodeGrayPng } from "../src/index.js";
import { englishDataPath, exifOrientation } from "../src/ocr/tesseract-core.js";
import { failureOf } from "./support/failure.js";
import { FLYER } from "./support/large-image.js";
import { imageToPdf, textToPdf } from "./support/make-pdf.js";
import { renderTextPng } from "./support/render-text.js";

// OCR costs about a second a job: these tests are few, and share a parser where they can.
const parser = createDocumentParser();
afterAll(() => parser.close());

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name));

describe("OCR of images", () => {
  it("reads a PNG with printed text end to end, from local language data only", async () => {
    const parsed = await parser.parse({ bytes: renderTextPng(FLYER) });
    expect(parsed).toMatchObject({ kind: "png", category: "cybersecurity", price: 4500 });
    expect(parsed.contactEmail).toBe("security@redline-labs.io");
    expect(parsed.fields.category.confidence).toBeGreaterThan(0);
    expect(englishDataPath()).toMatch(/node_modules.*@tesseract\.js-data.*eng.*best_int/);
  });

  it("reads JPEG and WebP files (made once from a rendered flyer with Pillow)", async () => {
    const jpeg = await parser.parse({ bytes: fixture("seo-flyer.jpg") });
    expect(jpeg).toMatchObject({
      kind: "jpeg",
      category: "digital-marketing",
      price: 1500,
      contactEmail: "seo@rankriver.com",
    });
    const webp = await parser.parse({ bytes: fixture("chatbot-flyer.webp") });
    expect(webp).toMatchObject({ kind: "webp", category: "artificial-intelligence", price: 9000 });
  });

  it("OCRs a scanned PDF (a page image, no text layer)", async () => {
    const parsed = await parser.parse({ bytes: await imageToPdf(renderTextPng(FLYER)) });
    expect(parsed).toMatchObject({
      kind: "pdf",
      category: "cybersecurity",
      contactEmail: "security@redline-labs.io",
    });
  });

  it("refuses a PDF with neither a text layer nor a page image, saying so", async () => {
    const empty = await textToPdf(" ");
    expect(await failureOf(parser.parse({ bytes: empty }))).toMatchObject({
      code: "unsupported_document",
      message: expect.stringMatching(/scanned PDF with no text layer/),
    });
  });

  it("400 for an image whose header is sound but whose pixels are not; 422 when no text is found", async () => {
    const png = encodeGrayPng(40, 40, new Uint8Array(1600).fill(255));
    const broken = Uint8Array.from(png);
    broken.fill(0x55, 37, broken.length - 12); // overwrite the compressed pixel data
    expect(await failureOf(parser.parse({ bytes: broken }))).toMatchObject({ code: "unsupported_document" });
    expect(await failureOf(parser.parse({ bytes: png }))).toMatchObject({ code: "document_unreadable" });
  });

  it("hands tesseract a JPEG's big-endian EXIF orientation, as tesseract.js did, and 1 otherwise", () => {
    // An APP1 "Exif\0\0" block in Motorola order whose one IFD entry is Orientation (0x0112) = 6.
    const entry = [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00];
    const head = [0xff, 0xd8, 0xff, 0xe1, 0x00, 0x22, ...Buffer.from("Exif\0\0MM\0*"), 0, 0, 0, 8, 0, 1];
    expect(exifOrientation(Uint8Array.from([...head, ...entry]))).toBe(6);
    expect(exifOrientation(Uint8Array.from([...head, ...entry.slice(0, 9), 0x09]))).toBe(1);
    expect(exifOrientation(fixture("seo-flyer.jpg"))).toBe(1);
    expect(exifOrientation(new Uint8Array(600).fill(1))).toBe(1);
  });
});

describe("OCR bounds", () => {
  it.skipIf(!existsSync("/proc/self/status"))(
    "reads images on the document process's own thread, with no second V8 isolate (needs /proc)",
    async () => {
      const reader = createDocumentParser({ parsePoolSize: 1 });
      try {
        await reader.parse({ bytes: await textToPdf("Bookkeeping from $290 per month") });
        const [pid] = reader.stats().pids;
        const threads = () => readFileSync(`/proc/${pid}/status`, "latin1").match(/^Threads:\s+(\d+)/m)?.[1];
        const before = threads();
        expect(await reader.parse({ bytes: renderTextPng(FLYER) })).toMatchObject({ kind: "png" });
        expect(reader.stats().pids).toEqual([pid]);
        // tesseract.js ran tesseract in a worker thread of its own: a thread and ~25 MiB more.
        expect(threads()).toBe(before);
      } finally {
        await reader.close();
      }
    },
  );

  it("close() while a job's process is starting tesseract ends the job at once, with nothing left unhandled", async () => {
    // A deadline far beyond the test's own timeout: only close() can end this job in time.
    const closing = createDocumentParser({ parsePoolSize: 1, ocrTimeoutMs: 600_000 });
    const job = failureOf(closing.parse({ bytes: renderTextPng(FLYER) }));
    while (closing.stats().running === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await closing.close();
    expect(await job).toMatchObject({
      code: "document_parser_busy",
      message: expect.stringMatching(/shutting down/),
    });
  });
});
