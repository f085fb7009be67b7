/**
 * A parse worker for the pool's bound tests: the real protocol and the real reader, plus jobs
 * that misbehave on purpose, chosen by the document's text. It lives in test/, so production
 * code has no way to run these jobs.
 */
import type { ReadSettings } from "../../src/worker/read-document.ts";
import { resolveFromSource } from "../../src/worker/source-hooks.ts";

resolveFromSource();
const { workerData } = await import("node:worker_threads");
const { serveJobs } = await import("../../src/worker/serve.js");
const { readDocument } = await import("../../src/worker/read-document.js");
const { renderTextPng } = await import("./render-text.js");

const settings = workerData as ReadSettings;
const hog: unknown[] = [];
serveJobs(async (bytes, ocr) => {
  const command = new TextDecoder().decode(bytes.subarray(0, 64));
  if (command === "hostile: allocate heap") for (;;) hog.push({ at: hog.length, text: `${Math.random()}` });
  if (command === "hostile: allocate buffers") for (;;) hog.push(new Uint8Array(8 * 1024 * 1024).fill(1));
  if (command === "hostile: loop") for (;;);
  if (command === "hostile: sleep") await new Promise((resolve) => setTimeout(resolve, 60_000));
  if (command === "hostile: ocr") {
    const read = await ocr(renderTextPng(["INVOICE AUDIT", "Contact: audit@ledger.io"]));
    return readDocument(new TextEncoder().encode(read.text), settings, ocr);
  }
  return readDocument(bytes, settings, ocr);
});
