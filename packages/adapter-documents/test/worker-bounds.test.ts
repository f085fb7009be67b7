import { afterEach, describe, expect, it } from "vitest";
import {
  type ClosableDocumentParser,
  createDocumentParser,
  type DocumentParserOptions,
} from "../src/index.js";
import { failureOf } from "./support/failure.js";

// Jobs that misbehave on purpose run through a test-only process script (support/hostile-worker.ts)
// that speaks the real protocol; anything else it reads with the real reader.
const HOSTILE = new URL("./support/hostile-worker.ts", import.meta.url);
const parsers: ClosableDocumentParser[] = [];
afterEach(async () => {
  await Promise.all(parsers.splice(0).map((p) => p.close()));
});

function hostileParser(options: DocumentParserOptions = {}): ClosableDocumentParser {
  const parser = createDocumentParser({ parsePoolSize: 1, ...options }, { workerEntry: HOSTILE });
  parsers.push(parser);
  return parser;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
// A fresh copy each time: parse() hands the buffer over to the worker (it is detached here).
const offer = () =>
  utf8("# Bookkeeping\nMonthly accounts in Xero. Price: $300 per month.\nContact: books@tidy.io");

describe("document processes", () => {
  it("a job that fills the JS heap is stopped by --max-old-space-size (413); a fresh process reads the next", async () => {
    const parser = hostileParser({ parseWorkerMemoryMb: 64 });
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: allocate heap") }))).toMatchObject({
      code: "payload_too_large",
      message: expect.stringMatching(/more than 64 MiB of heap/),
    });
    expect(await parser.parse({ bytes: offer() })).toMatchObject({
      price: 300,
      contactEmail: "books@tidy.io",
    });
  });

  it("a job that fills buffers outside the heap is killed by the memory watch (413) at its resident bound", async () => {
    const parser = hostileParser({ processMemoryMb: 192 });
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: allocate buffers") }))).toMatchObject({
      code: "payload_too_large",
      message: expect.stringMatching(/more than 192 MiB of memory/),
    });
    expect(await parser.parse({ bytes: offer() })).toMatchObject({ price: 300 });
  });

  it("a job that never ends is killed at its deadline (422); a fresh process reads the next", async () => {
    const parser = hostileParser({ parseTimeoutMs: 300 });
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: loop") }))).toMatchObject({
      code: "document_unreadable",
      message: expect.stringMatching(/within 300 ms/),
    });
    expect(await parser.parse({ bytes: offer() })).toMatchObject({ category: "financial-services" });
  });

  it("counts OCR against the same hard deadline: a document is killed within ocrTimeoutMs of its start, OCR included", async () => {
    // No document, whatever it holds, is OCR'd within 1 ms (tesseract alone takes a second to start).
    const parser = hostileParser({ parseTimeoutMs: 1, ocrTimeoutMs: 1 });
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: ocr") }))).toMatchObject({
      code: "document_unreadable",
      message: expect.stringMatching(/within 1 ms/),
    });
  });

  it("gives each caller one OCR job at a time: a second is refused (503, Retry-After) while another caller's is read", async () => {
    const parser = hostileParser({ parsePoolSize: 3, ocrTimeoutMs: 600_000 });
    const holding = failureOf(
      parser.parse({ bytes: utf8("hostile: ocr, then hold the turn"), caller: "ann" }),
    );
    // Waits for the first job to hold its turn, however long its process takes to start.
    while (parser.stats().ocr === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await failureOf(parser.parse({ bytes: utf8("hostile: ocr"), caller: "ann" }));
    expect(refused).toMatchObject({
      code: "document_parser_busy",
      message: expect.stringMatching(/one at a time/),
    });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(await parser.parse({ bytes: utf8("hostile: ocr"), caller: "bob" })).toMatchObject({
      contactEmail: "audit@ledger.io",
    });
    // Text needs no turn: the same caller's other documents are read meanwhile.
    expect(await parser.parse({ bytes: offer(), caller: "ann" })).toMatchObject({ price: 300 });
    await parser.close();
    expect(await holding).toMatchObject({ code: "document_parser_busy" });
  });

  it("a document process that crashes costs one process, never this one", async () => {
    const parser = hostileParser();
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: crash") }))).toMatchObject({
      code: "document_unreadable",
    });
    expect(await parser.parse({ bytes: offer() })).toMatchObject({ price: 300 });
  });

  it("503 with retryAfter when every process stays busy past the queue wait, at once when the queue is full", async () => {
    const parser = hostileParser({ parseQueueWaitMs: 50, parseMaxQueue: 1, parseTimeoutMs: 60_000 });
    const held = failureOf(parser.parse({ bytes: utf8("hostile: sleep") }));
    const waited = failureOf(parser.parse({ bytes: offer() }));
    const refused = await failureOf(parser.parse({ bytes: offer() }));
    expect(refused).toMatchObject({ code: "document_parser_busy" });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(await waited).toMatchObject({ code: "document_parser_busy" });
    await parser.close();
    expect(await held).toMatchObject({
      code: "document_parser_busy",
      message: expect.stringMatching(/shutting down/),
    });
  });

  it("queues up to its bound: eight documents at once on two processes are all read", async () => {
    // Waits as long as the two processes take to start and read: the bound counted here is the queue.
    const parser = createDocumentParser({ parsePoolSize: 2, parseQueueWaitMs: 600_000 });
    parsers.push(parser);
    const results = await Promise.all(Array.from({ length: 8 }, () => parser.parse({ bytes: offer() })));
    expect(results.every((r) => r.price === 300)).toBe(true);
  });
});
