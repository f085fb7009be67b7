/** The queue of one group commit (view-batcher.ts, listing-insert-batcher.ts). */
export interface BatchQueue<B> {
  /** The batch still filling (the newest), if any. */
  newest(): B | undefined;
  /** The batch to add to: the newest, or a fresh one from `open()` when there is none or it is `full`. */
  filling(open: () => B, full: (batch: B) => boolean): B;
  /** Called after adding to a batch: with a write slot free, writes once this turn of the event loop is over. */
  schedule(): void;
}

/**
 * The scheduling both group commits share. Callers add to the newest batch; a
 * batch is written once the current turn of the event loop is over, so that
 * the writes of its callbacks share it, at most `maxInFlight` at once; what
 * arrives during a write fills the next batch, which goes out as soon as a
 * write ends, so batches grow with the load. `write` settles every member of
 * its batch and never throws.
 */
export function createBatchQueue<B>(write: (batch: B) => Promise<void>, maxInFlight: number): BatchQueue<B> {
  // Filling from the back; the front one is written next.
  const queue: B[] = [];
  let inFlight = 0;
  let scheduled = false;

  function pump(): void {
    scheduled = false;
    while (inFlight < maxInFlight) {
      const batch = queue.shift();
      if (batch === undefined) return;
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        // What arrived during the write has waited a round trip already: send it now.
        pump();
      });
    }
  }

  return {
    newest: () => queue.at(-1),
    filling(open, full) {
      let batch = queue.at(-1);
      if (batch === undefined || full(batch)) {
        batch = open();
        queue.push(batch);
      }
      return batch;
    },
    schedule() {
      if (inFlight < maxInFlight && !scheduled) {
        scheduled = true;
        setImmediate(pump);
      }
    },
  };
}
