import { MarketplaceError } from "@psm/core";
import { type OcrImage, toBudgetedImage } from "./ocr-image.js";
import { loadTesseract, type Tesseract, UndecodableImage } from "./tesseract-core.js";

/** What OCR read from one image. */
export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0..100. */
  confidence: number;
}

/** Tesseract inside one document process: loaded at its first image, ended with the process. */
export interface OcrEngine {
  /** Reads an image scaled to the pixel budget. Throws MarketplaceError (400, 413). */
  recognize(image: OcrImage): Promise<OcrResult>;
}

/**
 * Creates the engine of a document process. It needs no deadline or memory watch of its own:
 * the parent bounds the whole process (OCR included) and kills it past either bound.
 */
export function createOcrEngine(settings: { ocrMaxPixels: number }): OcrEngine {
  let tesseract: Promise<Tesseract> | null = null;
  return {
    async recognize(image) {
      const input = await toBudgetedImage(image, settings.ocrMaxPixels);
      tesseract ??= loadTesseract();
      const reader = await tesseract.catch((error: unknown) => {
        tesseract = null; // a failed load is tried again with the next image
        throw error;
      });
      try {
        const { text, confidence } = reader.read(input);
        return { text, confidence };
      } catch (error) {
        // A trap may have left its memory in any state: the next image loads a fresh one.
        if (!(error instanceof UndecodableImage)) tesseract = null;
        throw new MarketplaceError("unsupported_document", "The image could not be decoded", {
          cause: error,
        });
      }
    },
  };
}
