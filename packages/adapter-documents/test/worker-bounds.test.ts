import { afterEach, describe, expect, it } from "vitest";
import {
  type ClosableDocumentParser,
  createDocumentParser,
  type DocumentParserOptions,
} from "../src/index.js";
import { failureOf } from "./support/failure.js";

// Jobs that misbehave on purpose run through a test-only worker script (support/hostile-worker.ts)
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

describe("parse workers", () => {
  it("a job that fills the JS heap is stopped by resourceLimits (413); a fresh worker reads the next", async () => {
    const parser = hostileParser({ parseWorkerMemoryMb: 64 });
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: allocate heap") }))).toMatchObject({
      code: "payload_too_large",
      message: expect.stringMatching(/more than 64 MiB/),
    });
    expect(await parser.parse({ bytes: offer() })).toMatchObject({
      price: 300,
      contactEmail: "books@tidy.io",
    });
  });

  it("a job that fills buffers outside the heap is stopped by the memory watch (413), never the process", async () => {
    const parser = hostileParser({ parseWorkerMemoryMb: 64 });
    const before = process.memoryUsage.rss();
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: allocate buffers") }))).toMatchObject({
      code: "payload_too_large",
    });
    // Without the watch this job grows until the machine runs out: it stops near its 64 MiB.
    expect(process.memoryUsage.rss() - before).toBeLessThan(512 * 1024 * 1024);
    expect(await parser.parse({ bytes: offer() })).toMatchObject({ price: 300 });
  });

  it("a job that never ends is terminated at its deadline (422); a fresh worker reads the next", async () => {
    const parser = hostileParser({ parseTimeoutMs: 300 });
    expect(await failureOf(parser.parse({ bytes: utf8("hostile: loop") }))).toMatchObject({
      code: "document_unreadable",
      message: expect.stringMatching(/within 300 ms/),
    });
    expect(await parser.parse({ bytes: offer() })).toMatchObject({ category: "financial-services" });
  });

  it("does not count the wait for OCR against the deadline: OCR has its own", async () => {
    const parser = hostileParser({ parseTimeoutMs: 400 });
    // The first OCR job starts tesseract, which alone takes longer than this parse deadline.
    const parsed = await parser.parse({ bytes: utf8("hostile: ocr") });
    expect(parsed.contactEmail).toBe("audit@ledger.io");
  });

  it("503 with retryAfter when every worker stays busy past the queue wait, at once when the queue is full", async () => {
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

  it("hands the bytes over to the worker rather than copying them", async () => {
    const parser = hostileParser();
    const bytes = offer();
    await parser.parse({ bytes });
    expect(bytes.byteLength).toBe(0);
  });

  it("queues up to its bound: eight documents at once on two workers are all read", async () => {
    const parser = createDocumentParser({ parsePoolSize: 2 });
    parsers.push(parser);
    const results = await Promise.all(Array.from({ length: 8 }, () => parser.parse({ bytes: offer() })));
    expect(results.every((r) => r.price === 300)).toBe(true);
  });
});
