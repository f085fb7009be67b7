import type { Worker } from "node:worker_threads";

/** A worker the watch looks at, and how to end its job. */
export interface Watched {
  worker: Worker | null;
  /** Ends the running job (null when idle); the watch calls it with the error to answer. */
  kill: ((error: Error) => void) | null;
}

/**
 * Every `everyMs`, reads the heap statistics of each busy worker (answered even while the worker
 * runs synchronous code) and ends the job of one whose JS heap and external buffers together
 * pass `limitBytes`. resourceLimits bound only the heap: the ArrayBuffers pdf.js and zlib fill
 * live outside it, and without this watch a worker could take all of the machine's memory.
 * Returns a function that stops the watch.
 */
export function watchMemory(
  watched: readonly Watched[],
  limitBytes: number,
  tooMuch: () => Error,
  everyMs: number,
): () => void {
  const timer = setInterval(() => {
    for (const slot of watched) {
      const { worker, kill } = slot;
      if (worker === null || kill === null) continue;
      worker.getHeapStatistics().then(
        (s) => {
          // Still the same job: a late answer must not end the next one.
          if (slot.kill === kill && s.used_heap_size + s.external_memory > limitBytes) kill(tooMuch());
        },
        () => {},
      );
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
