import type { OcrResult } from "../ocr/ocr-engine.js";
import { createOcrEngine } from "../ocr/ocr-engine.js";
import type { OcrImage } from "../ocr/ocr-image.js";
import { type FromWorker, fromWire, type ToWorker, toWire } from "./protocol.js";

/** What a document process does with one job: read the bytes, calling `ocr` for each image to read. */
export type JobHandler<R> = (bytes: Uint8Array, ocr: (image: OcrImage) => Promise<OcrResult>) => Promise<R>;

/** Bounds of the OCR done inside a document process. */
export interface ServeSettings {
  /** Images are scaled down to at most this many pixels before recognition. */
  ocrMaxPixels: number;
}

/**
 * Runs inside a document process (a child process the parent forked): takes jobs one at a time
 * over the IPC channel and answers each with its result or its error. OCR runs here too, under
 * the same bounds as the rest of the job: the parent owns the deadline and the memory watch and
 * kills this process when either is passed, so nothing here needs to police itself. Before its
 * first OCR a job asks the parent, which allows one OCR job per caller at a time.
 */
export function serveJobs<R>(settings: ServeSettings, handle: JobHandler<R>): void {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error("serveJobs runs in a process forked with an IPC channel");
  const post = (message: FromWorker<R>) => send(message);
  const engine = createOcrEngine(settings);
  let permit: { id: number; resolve: () => void; reject: (e: Error) => void } | null = null;

  process.on("message", (message: ToWorker) => {
    if (message.type === "stop") process.exit(0);
    if (message.type === "ocr-go" && permit?.id === message.id) permit.resolve();
    if (message.type === "ocr-refused" && permit?.id === message.id) permit.reject(fromWire(message.error));
    if (message.type !== "job") return;
    const { id, bytes } = message;
    // Before a byte is read: a process that dies before the parent hears this never read the job.
    post({ type: "taken", id });
    let allowed: Promise<void> | null = null;
    const ocr = async (image: OcrImage) => {
      allowed ??= new Promise<void>((resolve, reject) => {
        permit = { id, resolve, reject };
        post({ type: "ocr", id });
      });
      await allowed;
      return engine.recognize(image);
    };
    handle(bytes, ocr).then(
      (result) => post({ type: "done", id, result }),
      (error: unknown) => post({ type: "failed", id, error: toWire(error) }),
    );
  });
  // A parent that is gone cannot be answered: end with it rather than linger.
  process.on("disconnect", () => process.exit(0));
  // Loading pdf.js and the extractors is the server's cost, not the document's: the pool
  // starts a job's deadline only once this has arrived.
  post({ type: "ready", id: 0 });
}
