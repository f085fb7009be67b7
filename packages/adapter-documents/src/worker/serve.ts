import { parentPort } from "node:worker_threads";
import type { OcrResult } from "../ocr/ocr-pool.js";
import { type FromWorker, fromWire, type ToWorker, toWire, transferable } from "./protocol.js";

/** What a worker does with one job: read the bytes, asking the main thread for OCR when needed. */
export type JobHandler<R> = (bytes: Uint8Array, ocr: (image: Uint8Array) => Promise<OcrResult>) => Promise<R>;

/**
 * Runs inside a parse worker: takes jobs from the main thread one at a time and answers each
 * with its result or its error. The main thread owns the deadline and the memory watch, and
 * terminates this thread when either is passed; nothing here needs to police itself.
 */
export function serveJobs<R>(handle: JobHandler<R>): void {
  const port = parentPort;
  if (port === null) throw new Error("serveJobs runs inside a worker thread");
  const post = (message: FromWorker<R>, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  let pendingOcr: { resolve: (r: OcrResult) => void; reject: (e: Error) => void } | null = null;

  port.on("message", (message: ToWorker) => {
    // An idle worker ends by letting its event loop run dry: terminating a thread that has
    // just loaded pdf.js can catch V8 mid-compilation, which we have seen abort the process.
    if (message.type === "stop") {
      port.close();
      return;
    }
    if (message.type === "ocr-result") pendingOcr?.resolve(message.result);
    else if (message.type === "ocr-error") pendingOcr?.reject(fromWire(message.error));
    if (message.type !== "job") {
      pendingOcr = null;
      return;
    }
    const { id, bytes } = message;
    const ocr = (image: Uint8Array) =>
      new Promise<OcrResult>((resolve, reject) => {
        pendingOcr = { resolve, reject };
        post({ type: "ocr", id, image }, transferable(image));
      });
    handle(bytes, ocr).then(
      (result) => post({ type: "done", id, result }),
      (error: unknown) => post({ type: "failed", id, error: toWire(error) }),
    );
  });
  // Loading pdf.js and the extractors is the server's cost, not the document's: the pool
  // starts a job's deadline only once this has arrived.
  post({ type: "ready", id: 0 });
}
