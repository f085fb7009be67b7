import { type ErrorCode, isMarketplaceError, MarketplaceError } from "@psm/core";

/** An error as it crosses a process: a MarketplaceError's code and message, or null for anything else (a bug: 500). */
export interface WireError {
  code: ErrorCode | null;
  message: string;
  retryAfter?: number | undefined;
}

/**
 * Parent to document process: a job, the answer to its request to start OCR (go, or refused
 * with the error to answer), or stop (when idle).
 */
export type ToWorker =
  | { type: "job"; id: number; bytes: Uint8Array }
  | { type: "stop"; id: 0 }
  | { type: "ocr-go"; id: number }
  | { type: "ocr-refused"; id: number; error: WireError };

/**
 * Document process to parent: ready for jobs (once, after its modules have loaded), a request to
 * start OCR (the parent counts OCR per caller and extends the job's deadline), the job's result,
 * or its failure.
 */
export type FromWorker<R> =
  | { type: "ready"; id: 0 }
  | { type: "taken"; id: number }
  | { type: "ocr"; id: number }
  | { type: "done"; id: number; result: R }
  | { type: "failed"; id: number; error: WireError };

/** Flattens an error for the IPC channel. */
export function toWire(error: unknown): WireError {
  if (isMarketplaceError(error))
    return { code: error.code, message: error.message, retryAfter: error.retryAfter };
  return { code: null, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** Rebuilds an error on the receiving side. */
export function fromWire(wire: WireError): Error {
  if (wire.code === null) return new Error(`document process failed: ${wire.message}`);
  return new MarketplaceError(wire.code, wire.message, { retryAfter: wire.retryAfter });
}
