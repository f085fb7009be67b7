import { type DocumentInput, type DocumentParser, MarketplaceError, type ParsedDocument } from "@psm/core";
import { askModel, mergeAnswer } from "./ai/ai-extractor.js";
import { type DocumentParserOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { createParsePool, type ParsePool, type PoolStats } from "./pool/parse-pool.js";
import type { ReadResult, ReadSettings } from "./worker/read-document.js";
import type { ServeSettings } from "./worker/serve.js";

/** How busy the document processes are, for metrics. */
export interface DocumentUse extends PoolStats {
  /** The most processes that run at once. */
  size: number;
}

/** A DocumentParser whose document processes must be released with `close()`. */
export interface ClosableDocumentParser extends DocumentParser {
  close(): Promise<void>;
  /** Document processes: the most that run at once (`size`), started so far, jobs running and waiting, callers in OCR, live pids. */
  stats(): DocumentUse;
}

// From the sources (tests) the process starts from its .ts file; from the build, from the .js beside this one.
const WORKER_ENTRY = new URL(
  import.meta.url.endsWith(".ts") ? "./worker/entry.ts" : "./worker/entry.js",
  import.meta.url,
);

/** Internal seam for tests: another process script (hostile jobs). */
export interface ParserInternals {
  workerEntry?: URL;
}

/**
 * Creates the offline document parser. The main thread only checks the size and hands the
 * bytes to a pool of document processes (child processes), which sniff the type, guard against
 * decompression bombs, read PDFs with pdf.js, scale images down and OCR them with tesseract, and
 * extract the fields; each job, OCR included, is bounded by a hard deadline and a memory limit
 * past which its process is killed, so a hostile document costs one process, never the server.
 * The optional model-backed extractor runs here, after the process, as it only waits on the network.
 */
export function createDocumentParser(
  options: DocumentParserOptions = {},
  internals: ParserInternals = {},
): ClosableDocumentParser {
  const opts: ResolvedOptions = resolveOptions(options);
  const settings: ReadSettings & ServeSettings = {
    maxPages: opts.maxPages,
    maxDeclaredPages: opts.maxDeclaredPages,
    maxPixels: opts.maxPixels,
    maxPdfInflateBytes: opts.maxPdfInflateBytes,
    maxOcrPages: opts.maxOcrPages,
    wantText: opts.ai !== null,
    ocrMaxPixels: opts.ocrMaxPixels,
  };
  let parsePool: ParsePool<ReadResult> | null = null;

  async function parse(input: DocumentInput): Promise<ParsedDocument> {
    const { bytes } = input;
    if (bytes.byteLength === 0) throw new MarketplaceError("unsupported_document", "The document is empty");
    if (bytes.byteLength > opts.maxBytes) {
      throw new MarketplaceError("payload_too_large", `The document is larger than ${opts.maxBytes} bytes`);
    }
    parsePool ??= createParsePool<ReadResult>({
      entry: internals.workerEntry ?? WORKER_ENTRY,
      settings,
      size: opts.parsePoolSize,
      timeoutMs: opts.parseTimeoutMs,
      ocrTimeoutMs: opts.ocrTimeoutMs,
      queueWaitMs: opts.parseQueueWaitMs,
      maxQueue: opts.parseMaxQueue,
      heapMb: opts.parseWorkerMemoryMb,
      memoryMb: opts.processMemoryMb,
      idleMs: opts.idleMs,
    });
    const { parsed, text } = await parsePool.run(bytes, input.caller);
    if (opts.ai === null || text === null) return parsed;
    const answer = await askModel(opts.ai, text);
    return answer === null ? parsed : { ...mergeAnswer(parsed, answer, text), kind: parsed.kind };
  }

  async function close(): Promise<void> {
    const pool = parsePool;
    parsePool = null;
    await pool?.close();
  }

  const stats = (): DocumentUse => ({
    size: opts.parsePoolSize,
    ...(parsePool?.stats() ?? { started: 0, running: 0, waiting: 0, ocr: 0, pids: [] }),
  });
  return { parse, close, stats };
}
