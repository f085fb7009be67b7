import { Worker as ThreadWorker } from "node:worker_threads";
import { MarketplaceError } from "@psm/core";
import Tesseract from "tesseract.js";
import { type OcrImage, toBudgetedImage } from "./ocr-image.js";
import { tesseractPaths } from "./tesseract-paths.js";

/** What OCR read from one image. */
export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0..100. */
  confidence: number;
}

/** Tesseract inside one document process: started at its first image, ended with the process. */
export interface OcrEngine {
  /** Reads an image scaled to the pixel budget. Throws MarketplaceError (400, 413). */
  recognize(image: OcrImage): Promise<OcrResult>;
}

/**
 * Creates the engine of a document process. It needs no deadline or memory watch of its own:
 * the parent bounds the whole process (OCR included) and kills it past either bound, which
 * ends tesseract's thread with it.
 */
export function createOcrEngine(settings: { ocrMaxPixels: number; ocrCachePath: string }): OcrEngine {
  let worker: Promise<Tesseract.Worker> | null = null;
  const start = () => {
    const { langPath, workerPath } = tesseractPaths();
    // cacheMethod "none": the data is read from langPath on disk and nothing is written anywhere.
    return Tesseract.createWorker("eng", Tesseract.OEM.LSTM_ONLY, {
      langPath,
      workerPath,
      cachePath: settings.ocrCachePath,
      cacheMethod: "none",
      gzip: true,
      // Without a handler tesseract.js rethrows worker errors where nobody can catch them.
      errorHandler: () => {},
    }).then((started) => {
      // A crashed thread leaves its job unanswered, and the parent's deadline ends the process.
      const thread: unknown = Reflect.get(started, "worker");
      if (thread instanceof ThreadWorker) thread.on("error", () => {});
      return started;
    });
  };
  return {
    async recognize(image) {
      const input = await toBudgetedImage(image, settings.ocrMaxPixels);
      worker ??= start();
      const result = await (await worker)
        .recognize(Buffer.from(input.buffer, input.byteOffset, input.byteLength))
        .catch((error: unknown) => {
          throw new MarketplaceError("unsupported_document", "The image could not be decoded", {
            cause: error,
          });
        });
      return { text: result.data.text ?? "", confidence: result.data.confidence ?? 0 };
    },
  };
}
