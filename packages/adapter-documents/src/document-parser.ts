import {
  type DocumentInput,
  type DocumentKind,
  type DocumentParser,
  MarketplaceError,
  type ParsedDocument,
} from "@psm/core";
import { askModel, mergeAnswer } from "./ai/ai-extractor.js";
import { withDeadline } from "./deadline.js";
import {
  type ExtractedFields,
  type ExtractionInput,
  extractFields,
  hasText,
} from "./extract/extract-fields.js";
import { readImageSize } from "./image-size.js";
import { createOcrPool, type OcrPool } from "./ocr/ocr-pool.js";
import { repairOcrText } from "./ocr/ocr-text.js";
import { type DocumentParserOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { exceedsInflateBudget } from "./pdf/inflate-guard.js";
import { corruptPdf, openPdf, readPdfText } from "./pdf/read-pdf.js";
import { readScannedPdf } from "./pdf/read-scanned.js";
import { sniffKind } from "./sniff.js";
import { decodeText } from "./text-decode.js";

/** A DocumentParser whose OCR workers must be released with `close()`. */
export interface ClosableDocumentParser extends DocumentParser {
  close(): Promise<void>;
}

const noText = (what: string) =>
  new MarketplaceError("document_unreadable", `No readable text was found in the ${what}`);

/**
 * Creates the offline document parser: type sniffing, PDF text through unpdf, OCR of images and
 * scanned PDFs through a small tesseract.js worker pool, heuristic extraction, and optionally a
 * model-backed extractor that falls back to the heuristic one on any failure.
 */
export function createDocumentParser(options: DocumentParserOptions = {}): ClosableDocumentParser {
  const opts: ResolvedOptions = resolveOptions(options);
  let pool: OcrPool | null = null;
  const ocr = (png: Uint8Array) => {
    pool ??= createOcrPool({
      size: opts.ocrPoolSize,
      timeoutMs: opts.ocrTimeoutMs,
      queueWaitMs: opts.ocrQueueWaitMs,
      maxQueue: opts.ocrMaxQueue,
      cachePath: opts.ocrCachePath,
    });
    return pool.recognize(png).then((r) => ({ ...r, text: repairOcrText(r.text) }));
  };

  async function readPdf(bytes: Uint8Array): Promise<ExtractionInput> {
    const timedOut = () =>
      new MarketplaceError("document_unreadable", `The PDF could not be read within ${opts.pdfTimeoutMs} ms`);
    if (exceedsInflateBudget(bytes, opts.maxPdfInflateBytes)) {
      throw new MarketplaceError(
        "payload_too_large",
        `The PDF's compressed content inflates past ${Math.round(opts.maxPdfInflateBytes / 1048576)} MiB; it is not read`,
      );
    }
    const pdf = await withDeadline(openPdf(bytes, opts.maxPixels), opts.pdfTimeoutMs, timedOut);
    const stop = () => void pdf.loadingTask.destroy().catch(() => {});
    try {
      const text = await withDeadline(
        readPdfText(pdf, opts.maxPages, opts.maxDeclaredPages).catch((e: unknown) =>
          Promise.reject(corruptPdf(e)),
        ),
        opts.pdfTimeoutMs,
        timedOut,
        stop,
      );
      if (hasText(text.pages)) return { pages: text.pages, metaTitle: text.title };
      const scanned = await readScannedPdf(pdf, { ...opts, ocr, deadline: timedOut, stop });
      if (!hasText(scanned.pages)) throw noText("scanned PDF");
      return { ...scanned, metaTitle: text.title };
    } finally {
      stop();
    }
  }

  async function readImage(bytes: Uint8Array, kind: DocumentKind): Promise<ExtractionInput> {
    const size = readImageSize(bytes, kind);
    if (size === null) {
      throw new MarketplaceError(
        "unsupported_document",
        `Unsupported document: the ${kind.toUpperCase()} header is corrupt`,
      );
    }
    if (size.width * size.height > opts.maxPixels) {
      throw new MarketplaceError(
        "payload_too_large",
        `The image is ${size.width}×${size.height} pixels; images over ${Math.round(opts.maxPixels / 1e6)} megapixels are not read`,
      );
    }
    const result = await ocr(bytes);
    if (!hasText([result.text])) throw noText("image");
    return { pages: [result.text], readConfidence: result.confidence / 100 };
  }

  async function read(bytes: Uint8Array, kind: DocumentKind): Promise<ExtractionInput> {
    if (kind === "pdf") return readPdf(bytes);
    if (kind !== "text") return readImage(bytes, kind);
    // A form feed separates pages in plain text, as printers and pdftotext write them.
    return { pages: decodeText(bytes).split("\f") };
  }

  async function parse(input: DocumentInput): Promise<ParsedDocument> {
    const { bytes } = input;
    if (bytes.byteLength === 0) throw new MarketplaceError("unsupported_document", "The document is empty");
    if (bytes.byteLength > opts.maxBytes) {
      throw new MarketplaceError("payload_too_large", `The document is larger than ${opts.maxBytes} bytes`);
    }
    const kind = sniffKind(bytes);
    const content = await read(bytes, kind);
    let fields: ExtractedFields = extractFields(content);
    if (opts.ai !== null) {
      const text = content.pages.join("\n");
      const answer = await askModel(opts.ai, text);
      if (answer !== null) fields = mergeAnswer(fields, answer, text);
    }
    return { ...fields, kind };
  }

  async function close(): Promise<void> {
    const current = pool;
    pool = null;
    await current?.close();
  }

  return { parse, close };
}
