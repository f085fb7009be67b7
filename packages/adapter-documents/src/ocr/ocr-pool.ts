import { Worker as ThreadWorker } from "node:worker_threads";
import { MarketplaceError } from "@psm/core";
import Tesseract from "tesseract.js";
import { withDeadline } from "../deadline.js";
import { createSlotQueue, type WorkerUse } from "../pool/slot-queue.js";
import { tesseractPaths } from "./tesseract-paths.js";

/** What OCR read from one image. */
export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0..100. */
  confidence: number;
}

/** A bounded set of tesseract.js workers (threads), created on first use. */
export interface OcrPool {
  /** Reads the text of a PNG, JPEG or WebP image. Throws MarketplaceError (400, 422, 503). */
  recognize(image: Uint8Array): Promise<OcrResult>;
  close(): Promise<void>;
  /** Jobs running (each holds one of `size` workers) and waiting for one. */
  stats(): WorkerUse;
}

/** Size, waiting and time bounds of the pool. */
export interface OcrPoolOptions {
  size: number;
  timeoutMs: number;
  queueWaitMs: number;
  maxQueue: number;
  cachePath: string;
}

interface Slot {
  worker: Promise<Tesseract.Worker> | null;
}

/**
 * Stops a worker's thread without going through tesseract's own `terminate`: that one nulls
 * the worker inside tesseract, and a job already past `recognize()` but not yet sent (it awaits
 * the image first) then rejects with a TypeError nobody can catch. A message posted to a
 * terminated thread is dropped instead; the job's deadline answers its caller.
 */
async function stopThread(worker: Tesseract.Worker): Promise<void> {
  const thread: unknown = Reflect.get(worker, "worker");
  if (thread instanceof ThreadWorker) await thread.terminate();
  else await worker.terminate();
}

/** Creates the pool. Workers run in worker_threads, so recognition never blocks the event loop. */
export function createOcrPool(options: OcrPoolOptions): OcrPool {
  const slots: Slot[] = Array.from({ length: options.size }, () => ({ worker: null }));
  let closed = false;
  const shuttingDown = () =>
    new MarketplaceError("document_parser_busy", "The document parser is shutting down");
  // close() rejects the jobs in flight, so they answer at once instead of at their deadline.
  const inFlight = new Set<(error: Error) => void>();
  let averageMs = 2_000;
  // A refused caller is told to come back after about one job's time.
  const queue = createSlotQueue(slots, {
    waitMs: options.queueWaitMs,
    maxQueue: options.maxQueue,
    retryAfter: () => Math.max(1, Math.ceil(averageMs / 1000)),
  });

  function spawn(): Promise<Tesseract.Worker> {
    const { langPath, workerPath } = tesseractPaths();
    // cacheMethod "none": the data is read from langPath on disk and nothing is written anywhere.
    return Tesseract.createWorker("eng", Tesseract.OEM.LSTM_ONLY, {
      langPath,
      workerPath,
      cachePath: options.cachePath,
      cacheMethod: "none",
      gzip: true,
      // Without a handler tesseract.js rethrows worker errors where nobody can catch them.
      errorHandler: () => {},
    }).then((worker) => {
      // A crashed thread must not take the process down: the slot gets a fresh worker next time.
      const thread: unknown = Reflect.get(worker, "worker");
      if (thread instanceof ThreadWorker) thread.on("error", () => {});
      return worker;
    });
  }

  function recycle(slot: Slot): void {
    const worker = slot.worker;
    slot.worker = null;
    worker?.then(stopThread).catch(() => {});
  }

  async function run(slot: Slot, image: Uint8Array): Promise<OcrResult> {
    slot.worker ??= spawn();
    const starting = slot.worker;
    const worker = await starting.catch((error: unknown) => {
      recycle(slot);
      throw new Error("OCR worker failed to start", { cause: error });
    });
    // The deadline may have recycled this worker while it started: a terminated
    // tesseract worker throws from inside its own promise chain if asked to work.
    if (slot.worker !== starting) throw new Error("OCR worker was recycled before its job started");
    const result = await worker
      .recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength))
      .catch((error: unknown) => {
        throw new MarketplaceError("unsupported_document", "The image could not be decoded", {
          cause: error,
        });
      });
    return { text: result.data.text ?? "", confidence: result.data.confidence ?? 0 };
  }

  async function recognize(image: Uint8Array): Promise<OcrResult> {
    if (closed) throw shuttingDown();
    const slot = await queue.acquire();
    const started = performance.now();
    try {
      // The bound covers a worker's start too: the caller waits for both. Past it the worker is
      // terminated (mid-job or mid-start) and the slot starts a fresh one on its next job.
      const timedOut = () =>
        new MarketplaceError("document_unreadable", `OCR did not finish within ${options.timeoutMs} ms`);
      let end: (error: Error) => void = () => {};
      const ended = new Promise<never>((_, reject) => {
        end = reject;
      });
      inFlight.add(end);
      const job = Promise.race([run(slot, image), ended]).finally(() => inFlight.delete(end));
      const result = await withDeadline(job, options.timeoutMs, timedOut, () => recycle(slot));
      averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
      return result;
    } finally {
      queue.release(slot);
    }
  }

  async function close(): Promise<void> {
    closed = true;
    for (const end of inFlight) end(shuttingDown());
    queue.rejectAll(shuttingDown());
    await Promise.all(slots.map((slot) => slot.worker?.then(stopThread).catch(() => {})));
    for (const slot of slots) slot.worker = null;
  }

  return {
    recognize,
    close,
    stats: () => ({ size: slots.length, running: inFlight.size, waiting: queue.waiting() }),
  };
}
