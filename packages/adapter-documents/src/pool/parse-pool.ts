import { MarketplaceError } from "@psm/core";
import { type FromWorker, fromWire, type ToWorker, toWire } from "../worker/protocol.js";
import {
  type DocumentProcess,
  holdOpen,
  type ProcessOptions,
  startDocumentProcess,
} from "./document-process.js";
import { watchMemory } from "./memory-watch.js";
import { createSlotQueue } from "./slot-queue.js";

/** Size, time and memory bounds of a pool of document processes. */
export interface ParsePoolOptions extends ProcessOptions {
  size: number;
  /** A job's hard deadline from its start; past it the process is killed. */
  timeoutMs: number;
  /** The hard deadline, from the job's start, of a job that asked for OCR (at least timeoutMs). */
  ocrTimeoutMs: number;
  queueWaitMs: number;
  maxQueue: number;
  /** The most a process may hold resident (heap, buffers, tesseract) before it is killed (413). */
  memoryMb: number;
  /** An idle process ends after this long; the next job starts a fresh one. */
  idleMs: number;
  /** How often a busy process's memory is looked at. Default 25 ms. */
  watchMs?: number;
}

/** Document processes reused across jobs, each job bounded in time and memory by killing its process. */
export interface ParsePool<R> {
  /** Runs one job; `caller` (when known) may have one OCR job at a time. */
  run(bytes: Uint8Array, caller?: string): Promise<R>;
  close(): Promise<void>;
  stats(): PoolStats;
}

/** Processes started so far (a killed one is replaced by a new start), jobs running and waiting, callers in OCR, live pids. */
export interface PoolStats {
  started: number;
  running: number;
  waiting: number;
  ocr: number;
  pids: number[];
}

interface Slot {
  process: DocumentProcess | null;
  pid: number | null;
  /**
   * Ends the running job with `error` and kills the process (`ended`: the process stopped of
   * itself, or could not be given the job); null while idle.
   */
  kill: ((error: Error, ended?: boolean) => void) | null;
  idle: NodeJS.Timeout | undefined;
}

/** Creates the pool; processes start on first use, are replaced after a kill and end when idle. */
export function createParsePool<R>(options: ParsePoolOptions): ParsePool<R> {
  const slots: Slot[] = Array.from({ length: options.size }, () => ({
    process: null,
    pid: null,
    kill: null,
    idle: undefined,
  }));
  let averageMs = 1_000;
  let started = 0;
  let jobs = 0;
  let closed = false;
  // One OCR job per caller at a time: the caller and the job holding its turn.
  const ocrTurns = new Map<string, number>();
  const retryAfter = () => Math.max(1, Math.ceil(averageMs / 1000));
  const queue = createSlotQueue(slots, {
    waitMs: options.queueWaitMs,
    maxQueue: options.maxQueue,
    retryAfter,
  });
  const tooMuchMemory = (mb: number, what: string) => () =>
    new MarketplaceError(
      "payload_too_large",
      `Reading the document needs more than ${mb} MiB ${what}; it is not read`,
    );
  const pastHeap = tooMuchMemory(options.heapMb, "of heap");
  const pastResident = tooMuchMemory(options.memoryMb, "of memory");
  const shuttingDown = () =>
    new MarketplaceError("document_parser_busy", "The document parser is shutting down");
  const stopped = () =>
    new MarketplaceError("document_unreadable", "The document process stopped while reading the document");
  const tooLate = (ms: number) =>
    new MarketplaceError("document_unreadable", `The document could not be read within ${ms} ms`);

  function discard(slot: Slot): void {
    const child = slot.process?.child;
    slot.process = null;
    slot.pid = null;
    child?.kill("SIGKILL");
  }

  function spawn(slot: Slot): DocumentProcess {
    const proc = startDocumentProcess(options, () =>
      // Killed from outside (an operator, the kernel's OOM killer) before its first job: try again.
      closed
        ? shuttingDown()
        : new MarketplaceError("document_parser_busy", "The document process stopped while starting", {
            retryAfter: 1,
          }),
    );
    started++;
    // Held open from its start (a job waits for it); let go once idle, in settle().
    slot.process = proc;
    slot.pid = proc.child.pid ?? null;
    proc.child.on("error", () => {}); // a failed start shows as its exit
    proc.child.once("exit", () => {
      if (slot.process !== proc) return;
      slot.process = null;
      slot.pid = null;
      // V8 says so on stderr before it aborts at the heap limit: that is the document's fault (413).
      const outOfHeap = /heap limit|heap out of memory/i.test(proc.stderr());
      slot.kill?.(outOfHeap ? pastHeap() : stopped(), !outOfHeap);
    });
    return proc;
  }

  const stopWatch = watchMemory(slots, options.memoryMb * 1024 * 1024, pastResident, options.watchMs ?? 25);

  function idleLater(slot: Slot): void {
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (slot.kill === null && slot.process !== null) {
        const { child } = slot.process;
        slot.process = null;
        slot.pid = null;
        // It exits on its own; one that cannot be told is killed.
        child.send({ type: "stop", id: 0 } satisfies ToWorker, (error) => {
          if (error) child.kill("SIGKILL");
        });
      }
    }, options.idleMs);
    slot.idle.unref();
  }

  /**
   * Runs one job on the slot's process, started if needed. A process killed between jobs (by an
   * operator, the kernel) may not have been seen to end yet: a job it never took (no `taken`
   * before it stopped) read nothing, so it runs once more on a fresh process; one it took answers
   * as stopped, since the document itself may be what ended it.
   */
  async function execute(
    slot: Slot,
    bytes: Uint8Array,
    caller: string | undefined,
    again = true,
  ): Promise<R> {
    clearTimeout(slot.idle);
    const proc = slot.process ?? spawn(slot);
    await proc.ready;
    if (closed) throw shuttingDown();
    const { child } = proc;
    const id = ++jobs;
    return new Promise<R>((resolve, reject) => {
      let done = false;
      let taken = false;
      const startedAt = performance.now();
      const expire = (ms: number) =>
        setTimeout(() => slot.kill?.(tooLate(ms)), Math.max(0, ms - (performance.now() - startedAt)));
      let deadline = expire(options.timeoutMs);
      const settle = (finish: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        child.off("message", onMessage);
        if (caller !== undefined && ocrTurns.get(caller) === id) ocrTurns.delete(caller);
        slot.kill = null;
        holdOpen(child, false);
        finish();
      };
      const onMessage = (message: FromWorker<R>) => {
        if (message.id !== id || done) return;
        if (message.type === "taken") taken = true;
        else if (message.type === "done") settle(() => resolve(message.result));
        else if (message.type === "failed") settle(() => reject(fromWire(message.error)));
        else if (message.type === "ocr") {
          const holder = caller === undefined ? undefined : ocrTurns.get(caller);
          if (caller !== undefined && holder !== undefined && holder !== id) {
            const busy = new MarketplaceError(
              "document_parser_busy",
              "Another image of yours is being read: one at a time",
              { retryAfter: retryAfter() },
            );
            child.send({ type: "ocr-refused", id, error: toWire(busy) } satisfies ToWorker);
            return;
          }
          if (caller !== undefined) ocrTurns.set(caller, id);
          // OCR moves the deadline once, to ocrTimeoutMs from the job's start: it never pauses.
          clearTimeout(deadline);
          deadline = expire(Math.max(options.timeoutMs, options.ocrTimeoutMs));
          child.send({ type: "ocr-go", id } satisfies ToWorker);
        }
      };
      slot.kill = (error, ended = false) =>
        settle(() => {
          discard(slot);
          if (again && ended && !taken) resolve(execute(slot, bytes, caller, false));
          else reject(error);
        });
      holdOpen(child, true);
      child.on("message", onMessage);
      // A process killed from outside between jobs cannot take this one: the job answers as stopped.
      child.send({ type: "job", id, bytes } satisfies ToWorker, (error) => {
        if (error) slot.kill?.(stopped(), true);
      });
    });
  }

  return {
    async run(bytes, caller) {
      if (closed) throw shuttingDown();
      const slot = await queue.acquire();
      const startedAt = performance.now();
      try {
        if (closed) throw shuttingDown();
        return await execute(slot, bytes, caller);
      } finally {
        averageMs = averageMs * 0.8 + (performance.now() - startedAt) * 0.2;
        if (!closed) idleLater(slot);
        queue.release(slot);
      }
    },
    async close() {
      closed = true;
      stopWatch();
      queue.rejectAll(shuttingDown());
      // Killing a process is always safe for this one: running jobs end at once, idle processes too.
      const exits = slots.flatMap((slot) => {
        clearTimeout(slot.idle);
        const child = slot.process?.child;
        if (child === undefined || child.exitCode !== null || child.signalCode !== null) return [];
        holdOpen(child, true); // until its exit has been seen
        return [new Promise<void>((resolve) => child.once("exit", () => resolve()))];
      });
      for (const slot of slots) {
        slot.kill?.(shuttingDown());
        discard(slot);
      }
      await Promise.all(exits);
    },
    stats: () => ({
      started,
      running: slots.filter((s) => s.kill !== null).length,
      waiting: queue.waiting(),
      ocr: ocrTurns.size,
      pids: slots.flatMap((s) => (s.pid === null ? [] : [s.pid])),
    }),
  };
}
