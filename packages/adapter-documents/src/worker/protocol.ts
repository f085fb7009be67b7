import { type ErrorCode, isMarketplaceError, MarketplaceError } from "@psm/core";
import type { OcrResult } from "../ocr/ocr-pool.js";

/** An error as it crosses a thread: a MarketplaceError's code and message, or null for anything else (a bug: 500). */
export interface WireError {
  code: ErrorCode | null;
  message: string;
  retryAfter?: number | undefined;
}

/** Main thread to worker: a job (its bytes transferred, not copied), the answer to an OCR request, or stop (when idle). */
export type ToWorker =
  | { type: "job"; id: number; bytes: Uint8Array }
  | { type: "stop"; id: 0 }
  | { type: "ocr-result"; id: number; result: OcrResult }
  | { type: "ocr-error"; id: number; error: WireError };

/**
 * Worker to main thread: ready for jobs (once, after its modules have loaded), an image to OCR
 * (transferred), the job's result, or its failure.
 */
export type FromWorker<R> =
  | { type: "ready"; id: 0 }
  | { type: "ocr"; id: number; image: Uint8Array }
  | { type: "done"; id: number; result: R }
  | { type: "failed"; id: number; error: WireError };

/** Flattens an error for postMessage. */
export function toWire(error: unknown): WireError {
  if (isMarketplaceError(error))
    return { code: error.code, message: error.message, retryAfter: error.retryAfter };
  return { code: null, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** Rebuilds an error on the receiving side. */
export function fromWire(wire: WireError): Error {
  if (wire.code === null) return new Error(`document parser worker failed: ${wire.message}`);
  return new MarketplaceError(wire.code, wire.message, { retryAfter: wire.retryAfter });
}

/** The buffers of `bytes` that can be transferred rather than copied: only a view of a whole, ordinary ArrayBuffer. */
export function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer } = bytes;
  const whole = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
  return whole && buffer instanceof ArrayBuffer ? [buffer] : [];
}
