import { MarketplaceError } from "@psm/core";

/** How busy a pool of workers is now: its size, the jobs running and the jobs waiting for a worker. */
export interface WorkerUse {
  size: number;
  running: number;
  waiting: number;
}

/** Hands out a fixed set of slots; a caller waits a bounded time in a bounded queue, else gets 503. */
export interface SlotQueue<S> {
  /** A free slot, or one freed within `waitMs`; 503 `document_parser_busy` otherwise. */
  acquire(): Promise<S>;
  /** Gives the slot to the next waiter, or frees it. */
  release(slot: S): void;
  /** Rejects every waiter with `error` (shutting down). */
  rejectAll(error: Error): void;
  /** Waiters right now. */
  waiting(): number;
}

interface Waiter<S> {
  resolve: (slot: S) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Creates the queue over `slots`; `retryAfter()` says how many seconds a refused caller should wait. */
export function createSlotQueue<S>(
  slots: readonly S[],
  options: { waitMs: number; maxQueue: number; retryAfter: () => number },
): SlotQueue<S> {
  const free = [...slots];
  const queue: Waiter<S>[] = [];
  const busy = () =>
    new MarketplaceError("document_parser_busy", undefined, { retryAfter: options.retryAfter() });
  return {
    acquire() {
      const slot = free.pop();
      if (slot !== undefined) return Promise.resolve(slot);
      if (queue.length >= options.maxQueue) return Promise.reject(busy());
      return new Promise((resolve, reject) => {
        const waiter: Waiter<S> = {
          resolve,
          reject,
          timer: setTimeout(() => {
            queue.splice(queue.indexOf(waiter), 1);
            reject(busy());
          }, options.waitMs),
        };
        queue.push(waiter);
      });
    },
    release(slot) {
      const next = queue.shift();
      if (next === undefined) {
        free.push(slot);
        return;
      }
      clearTimeout(next.timer);
      next.resolve(slot);
    },
    rejectAll(error) {
      for (const waiter of queue.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.reject(error);
      }
    },
    waiting: () => queue.length,
  };
}
