import { Worker } from "node:worker_threads";
import { MarketplaceError } from "@psm/core";
import type { OcrResult } from "../ocr/ocr-pool.js";
import { type FromWorker, fromWire, type ToWorker, toWire, transferable } from "../worker/protocol.js";
import { watchMemory } from "./memory-watch.js";
import { pausableDeadline } from "./pausable-deadline.js";
import { createSlotQueue } from "./slot-queue.js";

/** Size, time and memory bounds of a pool of parse workers. */
export interface ParsePoolOptions {
  /** The worker script (`src/worker/entry.ts` or `dist/worker/entry.js`; tests pass their own). */
  entry: URL;
  /** Handed to every worker as `workerData`. */
  workerData: unknown;
  size: number;
  /** A job's own time; waits for OCR on the main thread are not counted. Past it the worker is terminated. */
  timeoutMs: number;
  queueWaitMs: number;
  maxQueue: number;
  /** JS heap limit of a worker, and the most its heap and buffers together may hold. */
  memoryMb: number;
  /** How often a busy worker's memory is looked at. Default 25 ms. */
  watchMs?: number;
}

/** Parse workers reused across jobs, each job bounded in time and memory by terminating its worker. */
export interface ParsePool<R> {
  /** Runs one job. `bytes`' buffer is transferred (detached here) when the view spans all of it. */
  run(bytes: Uint8Array, ocr: (image: Uint8Array) => Promise<OcrResult>): Promise<R>;
  close(): Promise<void>;
  /** Workers started so far (a killed one is replaced by a new start), and jobs running and waiting. */
  stats(): { started: number; running: number; waiting: number };
}

interface Slot {
  worker: Worker | null;
  /** Settles when the worker has loaded and listens for jobs; rejects when it dies first. */
  ready: Promise<void> | null;
  /** Ends the running job with `error` and discards the worker; null while idle. */
  kill: ((error: Error) => void) | null;
}

/** How long an idle worker has to end on its own when the pool closes, before it is terminated. */
const STOP_GRACE_MS = 2_000;

/** Creates the pool; workers start on first use and are replaced after a kill. */
export function createParsePool<R>(options: ParsePoolOptions): ParsePool<R> {
  const slots: Slot[] = Array.from({ length: options.size }, () => ({
    worker: null,
    ready: null,
    kill: null,
  }));
  let averageMs = 1_000;
  let started = 0;
  let jobs = 0;
  let closed = false;
  const queue = createSlotQueue(slots, {
    waitMs: options.queueWaitMs,
    maxQueue: options.maxQueue,
    retryAfter: () => Math.max(1, Math.ceil(averageMs / 1000)),
  });
  const tooMuchMemory = () =>
    new MarketplaceError(
      "payload_too_large",
      `Reading the document needs more than ${options.memoryMb} MiB; it is not read`,
    );
  const shuttingDown = () =>
    new MarketplaceError("document_parser_busy", "The document parser is shutting down");

  function spawn(slot: Slot): Worker {
    const worker = new Worker(options.entry, {
      workerData: options.workerData,
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        maxYoungGenerationSizeMb: 16,
        stackSizeMb: 4,
      },
    });
    started++;
    worker.unref();
    slot.ready = new Promise<void>((resolve, reject) => {
      const onReady = (message: { type?: string }) => {
        if (message.type !== "ready") return;
        worker.off("message", onReady);
        worker.off("exit", onExit);
        resolve();
      };
      const onExit = () =>
        reject(closed ? shuttingDown() : new Error("document parser worker stopped while starting"));
      worker.on("message", onReady);
      worker.once("exit", onExit);
    });
    slot.ready.catch(() => {}); // answered through the job that awaits it
    // Out of heap is the document's fault (413); any other crash is ours (500).
    // A replaced worker's last events must not touch the job of the worker that took its place.
    worker.on("error", (error: Error & { code?: string }) => {
      if (slot.worker === worker)
        slot.kill?.(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? tooMuchMemory() : error);
    });
    worker.on("exit", () => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      slot.ready = null;
      slot.kill?.(
        new MarketplaceError("document_unreadable", "The document parser stopped while reading the document"),
      );
    });
    return worker;
  }

  function discard(slot: Slot): void {
    const worker = slot.worker;
    slot.worker = null;
    slot.ready = null;
    void worker?.terminate();
  }

  async function stopIdle(worker: Worker): Promise<void> {
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_GRACE_MS);
    });
    try {
      worker.postMessage({ type: "stop", id: 0 } satisfies ToWorker);
    } catch {
      // already gone
    }
    await Promise.race([exited, late]);
    clearTimeout(timer);
    await worker.terminate();
  }

  const stopWatch = watchMemory(slots, options.memoryMb * 1024 * 1024, tooMuchMemory, options.watchMs ?? 25);

  async function execute(
    slot: Slot,
    bytes: Uint8Array,
    ocr: (image: Uint8Array) => Promise<OcrResult>,
  ): Promise<R> {
    slot.worker ??= spawn(slot);
    const worker = slot.worker;
    await slot.ready;
    if (closed) throw shuttingDown();
    const id = ++jobs;
    return new Promise<R>((resolve, reject) => {
      let done = false;
      const deadline = pausableDeadline(options.timeoutMs, () =>
        slot.kill?.(
          new MarketplaceError(
            "document_unreadable",
            `The document could not be read within ${options.timeoutMs} ms`,
          ),
        ),
      );
      const settle = (finish: () => void) => {
        if (done) return;
        done = true;
        deadline.clear();
        worker.off("message", onMessage);
        slot.kill = null;
        worker.unref();
        finish();
      };
      const onMessage = (message: FromWorker<R>) => {
        if (message.id !== id || done) return;
        if (message.type === "done") settle(() => resolve(message.result));
        else if (message.type === "failed") settle(() => reject(fromWire(message.error)));
        else if (message.type === "ocr") {
          // The clock stops while the main thread's OCR pool works: OCR has its own deadline.
          deadline.pause();
          const answer = (reply: ToWorker) => {
            if (done) return;
            deadline.resume();
            worker.postMessage(reply);
          };
          ocr(message.image).then(
            (result) => answer({ type: "ocr-result", id, result }),
            (error: unknown) => answer({ type: "ocr-error", id, error: toWire(error) }),
          );
        }
      };
      slot.kill = (error) =>
        settle(() => {
          discard(slot);
          reject(error);
        });
      worker.ref();
      worker.on("message", onMessage);
      try {
        worker.postMessage({ type: "job", id, bytes }, transferable(bytes));
      } catch (error) {
        settle(() => reject(error));
      }
    });
  }

  return {
    async run(bytes, ocr) {
      if (closed) throw shuttingDown();
      const slot = await queue.acquire();
      const startedAt = performance.now();
      try {
        if (closed) throw shuttingDown();
        return await execute(slot, bytes, ocr);
      } finally {
        averageMs = averageMs * 0.8 + (performance.now() - startedAt) * 0.2;
        queue.release(slot);
      }
    },
    async close() {
      closed = true;
      stopWatch();
      queue.rejectAll(shuttingDown());
      // A job still running is ended at once (its worker terminated); an idle worker is asked
      // to stop and given a moment to end on its own before it is terminated too.
      for (const slot of slots) slot.kill?.(shuttingDown());
      await Promise.all(slots.map((slot) => (slot.worker === null ? undefined : stopIdle(slot.worker))));
      for (const slot of slots) {
        slot.worker = null;
        slot.ready = null;
      }
    },
    stats: () => ({
      started,
      running: slots.filter((s) => s.kill !== null).length,
      waiting: queue.waiting(),
    }),
  };
}
