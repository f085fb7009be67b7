/**
 * A document process for the pool's bound tests: the real protocol, the real reader and the real
 * OCR, plus jobs that misbehave on purpose, chosen by the document's text. It lives in test/, so
 * production code has no way to run these jobs.
 */
import type { ReadSettings } from "../../src/worker/read-document.ts";
import type { ServeSettings } from "../../src/worker/serve.ts";
import { resolveFromSource } from "../../src/worker/source-hooks.ts";

resolveFromSource();
const { serveJobs } = await import("../../src/worker/serve.js");
const { readDocument } = await import("../../src/worker/read-document.js");
const { renderTextPng } = await import("./render-text.js");
const { readImageSize } = await import("../../src/image-size.js");

const settings = JSON.parse(process.argv[2] ?? "{}") as ReadSettings & ServeSettings;
const hog: unknown[] = [];
const flyer = () => {
  const bytes = renderTextPng(["INVOICE AUDIT", "Contact: audit@ledger.io"]);
  return { kind: "png" as const, bytes, ...(readImageSize(bytes, "png") ?? { width: 0, height: 0 }) };
};
serveJobs(settings, async (bytes, ocr) => {
  const command = new TextDecoder().decode(bytes.subarray(0, 64));
  if (command === "hostile: allocate heap") for (;;) hog.push({ at: hog.length, text: `${Math.random()}` });
  if (command === "hostile: allocate buffers") for (;;) hog.push(new Uint8Array(8 * 1024 * 1024).fill(1));
  if (command === "hostile: loop") for (;;);
  if (command === "hostile: crash") process.abort();
  if (command === "hostile: sleep") await new Promise((resolve) => setTimeout(resolve, 600_000));
  if (command === "hostile: ocr, then hold the turn") {
    await ocr(flyer());
    await new Promise((resolve) => setTimeout(resolve, 600_000));
  }
  if (command === "hostile: ocr") {
    const read = await ocr(flyer());
    return readDocument(new TextEncoder().encode(read.text), settings, ocr);
  }
  return readDocument(bytes, settings, ocr);
});
