import { type DocumentKind, MarketplaceError, type ParsedDocument } from "@psm/core";
import { type ExtractionInput, extractFields, hasText } from "../extract/extract-fields.js";
import { readImageSize } from "../image-size.js";
import type { OcrResult } from "../ocr/ocr-engine.js";
import type { OcrImage } from "../ocr/ocr-image.js";
import { repairOcrText } from "../ocr/ocr-text.js";
import { checkInflateBudget } from "../pdf/inflate-guard.js";
import { corruptPdf, openPdf, readPdfText } from "../pdf/read-pdf.js";
import { readScannedPdf } from "../pdf/read-scanned.js";
import { sniffKind } from "../sniff.js";
import { decodeText } from "../text-decode.js";

/** The bounds a parse worker applies; fixed for the worker's life. */
export interface ReadSettings {
  maxPages: number;
  maxDeclaredPages: number;
  maxPixels: number;
  maxPdfInflateBytes: number;
  maxOcrPages: number;
  /** Whether the text is sent back too, for the model-backed extractor on the main thread. */
  wantText: boolean;
}

/** What a worker answers: the parsed document, and its text when asked for. */
export interface ReadResult {
  parsed: ParsedDocument;
  text: string | null;
}

const noText = (what: string) =>
  new MarketplaceError("document_unreadable", `No readable text was found in the ${what}`);

/**
 * Everything that reads an upload, run inside a parse worker: the type from its bytes, the
 * decompression guard, pdf.js, the image header check, OCR (`ocr`, in this process too) and
 * extraction.
 */
export async function readDocument(
  bytes: Uint8Array,
  settings: ReadSettings,
  ocr: (image: OcrImage) => Promise<OcrResult>,
): Promise<ReadResult> {
  const kind = sniffKind(bytes);
  const content = await read(bytes, kind, settings, async (image) => {
    const result = await ocr(image);
    return { ...result, text: repairOcrText(result.text) };
  });
  const parsed = { ...extractFields(content), kind };
  return { parsed, text: settings.wantText ? content.pages.join("\n") : null };
}

async function read(
  bytes: Uint8Array,
  kind: DocumentKind,
  settings: ReadSettings,
  ocr: (image: OcrImage) => Promise<OcrResult>,
): Promise<ExtractionInput> {
  if (kind === "pdf") return readPdf(bytes, settings, ocr);
  // A form feed separates pages in plain text, as printers and pdftotext write them.
  if (kind === "text") return { pages: decodeText(bytes).split("\f") };
  const size = readImageSize(bytes, kind);
  if (size === null) {
    throw new MarketplaceError(
      "unsupported_document",
      `Unsupported document: the ${kind.toUpperCase()} header is corrupt`,
    );
  }
  if (size.width * size.height > settings.maxPixels) {
    throw new MarketplaceError(
      "payload_too_large",
      `The image is ${size.width}×${size.height} pixels; images over ${Math.round(settings.maxPixels / 1e6)} megapixels are not read`,
    );
  }
  const result = await ocr({ kind, bytes, ...size });
  if (!hasText([result.text])) throw noText("image");
  return { pages: [result.text], readConfidence: result.confidence / 100 };
}

async function readPdf(
  bytes: Uint8Array,
  settings: ReadSettings,
  ocr: (image: OcrImage) => Promise<OcrResult>,
): Promise<ExtractionInput> {
  await checkInflateBudget(bytes, { budget: settings.maxPdfInflateBytes, maxPixels: settings.maxPixels });
  const pdf = await openPdf(bytes, settings.maxPixels);
  try {
    const text = await readPdfText(pdf, settings.maxPages, settings.maxDeclaredPages).catch((e: unknown) =>
      Promise.reject(corruptPdf(e)),
    );
    if (hasText(text.pages)) return { pages: text.pages, metaTitle: text.title };
    const scanned = await readScannedPdf(pdf, { maxOcrPages: settings.maxOcrPages, ocr });
    if (!hasText(scanned.pages)) throw noText("scanned PDF");
    return { ...scanned, metaTitle: text.title };
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}
