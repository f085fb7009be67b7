import { availableParallelism } from "node:os";

/** Settings of the optional model-backed extractor (an OpenAI-compatible chat completions API). */
export interface AiExtractorOptions {
  /** The endpoint, or the API base it hangs under (`…/v1` gets `/chat/completions` appended). */
  url: string;
  key: string;
  model: string;
  /** How long one answer may take before the heuristic result is used. Default 10 s. */
  timeoutMs?: number;
}

/** Bounds and settings of `createDocumentParser`; every field has a safe default. */
export interface DocumentParserOptions {
  /** Largest accepted file. Default 10 MiB. */
  maxBytes?: number;
  /** Pages of a PDF that are read; later pages are ignored. Default 20. */
  maxPages?: number;
  /** A PDF that declares more pages than this is refused (422) before any page is read. Default 5000. */
  maxDeclaredPages?: number;
  /** Largest image (declared width × height) decoded, alone or inside a PDF. Default 40 megapixels. */
  maxPixels?: number;
  /**
   * What a PDF's compressed streams may decode to in total, images aside (each image is held to
   * its declared size, and all of them to four times this). Default 64 MiB.
   */
  maxPdfInflateBytes?: number;
  /**
   * Hard deadline of one document in its process (sniffing, PDF, extraction), from its start;
   * past it the process is killed and the answer is 422. Default 10 s.
   */
  parseTimeoutMs?: number;
  /** @deprecated The former name of `parseTimeoutMs`, used when that one is not given. */
  pdfTimeoutMs?: number;
  /**
   * Document processes (child processes), started when first needed. Default: one a core but one,
   * 1 to 4, so that documents never take every core from the server's own requests.
   */
  parsePoolSize?: number;
  /** How long a document waits for a free process before the answer is 503. Default 2 s. */
  parseQueueWaitMs?: number;
  /** Documents that may wait at once; more are answered 503 at once. Default 4 × parsePoolSize. */
  parseMaxQueue?: number;
  /** JS heap limit of one document process (`--max-old-space-size`). Default 256 MiB. */
  parseWorkerMemoryMb?: number;
  /**
   * What one document process may hold resident (heap, buffers, tesseract), read from /proc every
   * 25 ms; past it the process is killed (413). Default 512 MiB.
   */
  processMemoryMb?: number;
  /** An idle document process (and its tesseract) ends after this long. Default 30 s. */
  idleMs?: number;
  /** Pages of a scanned PDF (no text layer) that are OCR'd. Default 3. */
  maxOcrPages?: number;
  /** Images are scaled down to at most this many pixels before OCR. Default 4 megapixels. */
  ocrMaxPixels?: number;
  /**
   * Hard deadline, from the document's start, of a document that is OCR'd (its process's start of
   * tesseract included); past it the process is killed (422). Default 15 s.
   */
  ocrTimeoutMs?: number;
  /** @deprecated Ignored: OCR runs in the document processes (one image at a time each). */
  ocrPoolSize?: number;
  /** @deprecated Ignored, as `ocrPoolSize`. */
  ocrQueueWaitMs?: number;
  /** @deprecated Ignored, as `ocrPoolSize`. */
  ocrMaxQueue?: number;
  /** @deprecated Ignored: tesseract reads its data from node_modules and has no cache. */
  ocrCachePath?: string;
  /** Turns on the model-backed extractor. */
  ai?: AiExtractorOptions | undefined;
}

/** Options with every default filled in. */
export type ResolvedOptions = Required<
  Omit<
    DocumentParserOptions,
    "ai" | "pdfTimeoutMs" | "ocrCachePath" | "ocrPoolSize" | "ocrQueueWaitMs" | "ocrMaxQueue"
  >
> & {
  ai: AiExtractorOptions | null;
};

function positive(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v <= 0)
    throw new RangeError(`createDocumentParser: ${name} must be a positive number`);
  return v;
}

/** Fills in defaults and checks that every bound is a positive number. */
export function resolveOptions(options: DocumentParserOptions = {}): ResolvedOptions {
  const parsePoolSize = Math.floor(
    positive("parsePoolSize", options.parsePoolSize, Math.max(1, Math.min(4, availableParallelism() - 1))),
  );
  const ai = options.ai ?? null;
  if (ai !== null && (!/^https?:\/\//.test(ai.url) || ai.key.length === 0 || ai.model.length === 0)) {
    throw new RangeError("createDocumentParser: ai needs an http(s) url, a key and a model");
  }
  return {
    maxBytes: positive("maxBytes", options.maxBytes, 10 * 1024 * 1024),
    maxPages: Math.floor(positive("maxPages", options.maxPages, 20)),
    maxDeclaredPages: Math.floor(positive("maxDeclaredPages", options.maxDeclaredPages, 5000)),
    maxPixels: positive("maxPixels", options.maxPixels, 40_000_000),
    maxPdfInflateBytes: positive("maxPdfInflateBytes", options.maxPdfInflateBytes, 64 * 1024 * 1024),
    parseTimeoutMs: positive("parseTimeoutMs", options.parseTimeoutMs ?? options.pdfTimeoutMs, 10_000),
    parsePoolSize,
    parseQueueWaitMs: positive("parseQueueWaitMs", options.parseQueueWaitMs, 2_000),
    parseMaxQueue: Math.floor(positive("parseMaxQueue", options.parseMaxQueue, parsePoolSize * 4)),
    parseWorkerMemoryMb: Math.floor(positive("parseWorkerMemoryMb", options.parseWorkerMemoryMb, 256)),
    processMemoryMb: Math.floor(positive("processMemoryMb", options.processMemoryMb, 512)),
    idleMs: positive("idleMs", options.idleMs, 30_000),
    maxOcrPages: Math.floor(positive("maxOcrPages", options.maxOcrPages, 3)),
    ocrMaxPixels: Math.floor(positive("ocrMaxPixels", options.ocrMaxPixels, 4_000_000)),
    ocrTimeoutMs: positive("ocrTimeoutMs", options.ocrTimeoutMs, 15_000),
    ai,
  };
}
