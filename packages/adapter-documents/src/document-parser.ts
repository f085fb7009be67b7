import { type DocumentInput, type DocumentParser, MarketplaceError, type ParsedDocument } from "@psm/core";
import { askModel, mergeAnswer } from "./ai/ai-extractor.js";
import { createOcrPool, type OcrPool } from "./ocr/ocr-pool.js";
import { type DocumentParserOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { createParsePool, type ParsePool } from "./pool/parse-pool.js";
import type { WorkerUse } from "./pool/slot-queue.js";
import type { ReadResult, ReadSettings } from "./worker/read-document.js";

/** A DocumentParser whose worker threads must be released with `close()`. */
export interface ClosableDocumentParser extends DocumentParser {
  close(): Promise<void>;
  /** How busy the parse and OCR workers are now (for metrics); a pool not started yet is idle. */
  stats(): { parse: WorkerUse; ocr: WorkerUse };
}

// From the sources (tests) the worker starts from its .ts file; from the build, from the .js beside this one.
const WORKER_ENTRY = new URL(
  import.meta.url.endsWith(".ts") ? "./worker/entry.ts" : "./worker/entry.js",
  import.meta.url,
);

/** Internal seams for tests: another worker script (a hostile job), and the OCR step. */
export interface ParserInternals {
  workerEntry?: URL;
}

/**
 * Creates the offline document parser. The main thread only checks the size and hands the
 * bytes to a pool of parse workers (worker_threads), which sniff the type, guard against
 * decompression bombs, read PDFs with pdf.js and extract the fields; each job is bounded by a
 * deadline and a memory limit that terminate its worker, so a hostile document costs one worker,
 * never the server. OCR runs in a separate small tesseract.js pool that workers ask through the
 * main thread; the optional model-backed extractor runs here, after the worker, as it only waits
 * on the network.
 */
export function createDocumentParser(
  options: DocumentParserOptions = {},
  internals: ParserInternals = {},
): ClosableDocumentParser {
  const opts: ResolvedOptions = resolveOptions(options);
  const settings: ReadSettings = {
    maxPages: opts.maxPages,
    maxDeclaredPages: opts.maxDeclaredPages,
    maxPixels: opts.maxPixels,
    maxPdfInflateBytes: opts.maxPdfInflateBytes,
    maxOcrPages: opts.maxOcrPages,
    wantText: opts.ai !== null,
  };
  let ocrPool: OcrPool | null = null;
  let parsePool: ParsePool<ReadResult> | null = null;
  // tesseract's own workers (threads) are costly to start and hold a model each: one small pool
  // serves every parse worker, instead of one tesseract per parse worker.
  const ocr = (image: Uint8Array) => {
    ocrPool ??= createOcrPool({
      size: opts.ocrPoolSize,
      timeoutMs: opts.ocrTimeoutMs,
      queueWaitMs: opts.ocrQueueWaitMs,
      maxQueue: opts.ocrMaxQueue,
      cachePath: opts.ocrCachePath,
    });
    return ocrPool.recognize(image);
  };

  async function parse(input: DocumentInput): Promise<ParsedDocument> {
    const { bytes } = input;
    if (bytes.byteLength === 0) throw new MarketplaceError("unsupported_document", "The document is empty");
    if (bytes.byteLength > opts.maxBytes) {
      throw new MarketplaceError("payload_too_large", `The document is larger than ${opts.maxBytes} bytes`);
    }
    parsePool ??= createParsePool<ReadResult>({
      entry: internals.workerEntry ?? WORKER_ENTRY,
      workerData: settings,
      size: opts.parsePoolSize,
      timeoutMs: opts.parseTimeoutMs,
      queueWaitMs: opts.parseQueueWaitMs,
      maxQueue: opts.parseMaxQueue,
      memoryMb: opts.parseWorkerMemoryMb,
    });
    const { parsed, text } = await parsePool.run(bytes, ocr);
    if (opts.ai === null || text === null) return parsed;
    const answer = await askModel(opts.ai, text);
    return answer === null ? parsed : { ...mergeAnswer(parsed, answer, text), kind: parsed.kind };
  }

  async function close(): Promise<void> {
    const pools = [parsePool, ocrPool];
    parsePool = null;
    ocrPool = null;
    await Promise.all(pools.map((pool) => pool?.close()));
  }

  function stats(): { parse: WorkerUse; ocr: WorkerUse } {
    const parse = parsePool?.stats();
    return {
      parse: { size: opts.parsePoolSize, running: parse?.running ?? 0, waiting: parse?.waiting ?? 0 },
      ocr: ocrPool?.stats() ?? { size: opts.ocrPoolSize, running: 0, waiting: 0 },
    };
  }

  return { parse, close, stats };
}
