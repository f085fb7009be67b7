import { MarketplaceError } from "@psm/core";
import type { OcrResult } from "../ocr/ocr-engine.js";
import type { OcrImage } from "../ocr/ocr-image.js";
import { largestPageImage } from "./page-images.js";
import { corruptPdf, type PdfDocument } from "./read-pdf.js";

/** What reading a scanned PDF needs from the parser. */
export interface ScannedPdfContext {
  maxOcrPages: number;
  ocr: (image: OcrImage) => Promise<OcrResult>;
}

/**
 * Reads a PDF that has no text layer: the largest image of each of the first pages (a scan is
 * one image a page) is OCR'd like an uploaded image. Refused, saying why, when there is none.
 */
export async function readScannedPdf(
  pdf: PdfDocument,
  context: ScannedPdfContext,
): Promise<{ pages: string[]; readConfidence: number }> {
  const pages: string[] = [];
  let confidence = 0;
  const count = Math.min(pdf.numPages, context.maxOcrPages);
  for (let n = 1; n <= count; n++) {
    // No race against a clock here: the document process's deadline kills the whole process.
    const image = await largestPageImage(pdf, n).catch((e: unknown) => Promise.reject(corruptPdf(e)));
    if (image === null) continue;
    const result = await context.ocr({ kind: "gray", ...image });
    pages.push(result.text);
    confidence += result.confidence;
  }
  if (pages.length === 0) {
    throw new MarketplaceError(
      "unsupported_document",
      "Unsupported document: a scanned PDF with no text layer and no page image that could be read",
    );
  }
  return { pages, readConfidence: confidence / pages.length / 100 };
}
