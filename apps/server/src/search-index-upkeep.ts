/** When the search indexes are merged, and how much at a time. */
export interface UpkeepTiming {
  /** How often the upkeep looks. */
  tickMs: number;
  /**
   * None before this long after the start: a server just started answers its first requests
   * and settles its memory first (a merge reads the whole index through the mapped file).
   */
  startDelayMs: number;
  /** Listing writes must have been quiet this long: merging while they go on would be undone. */
  quietMs: number;
  /** Pages a step writes at most per index (storage.mergeSearchIndexes). */
  pagesPerStep: number;
  /**
   * Rest owed per step taken before the next merge may begin, once one has ended or a write
   * has interrupted it: what bounds the merging's writes whatever the pattern of listing writes.
   */
  restPerStepMs: number;
}

/**
 * One step of 64 pages a fifth of a second (a few ms to ~20 ms of the event loop per index with
 * FULL sync, measured at 20,000 listings), and a second of rest per step taken: merge writes
 * average at most one step a second, about 0.8 MB/s across the three indexes, however often
 * listing writes interrupt them. The bench's 20,000 listings merge in ~15 s.
 */
export const UPKEEP: UpkeepTiming = {
  tickMs: 200,
  startDelayMs: 30_000,
  quietMs: 1_000,
  pagesPerStep: 64,
  restPerStepMs: 1_000,
};

/** A running upkeep; stop() ends its timer. */
export interface SearchIndexUpkeep {
  stop(): void;
}

/**
 * Keeps the SQLite search indexes merged into one segment each (searches read one segment
 * 1.5-2 times faster than the several that commits leave): while `writes` (the listing
 * revision) stays still for `quietMs`, a step every `tickMs` until `merge` says all are merged.
 * A write interrupts the merge (the next waits for quiet again); a merge may begin only once
 * the rest its predecessor's steps earned has passed. The timer never keeps the process alive.
 */
export function keepSearchIndexesMerged(
  merge: (pages: number) => boolean,
  writes: () => number,
  onError: (error: unknown) => void,
  timing: UpkeepTiming = UPKEEP,
  now: () => number = () => performance.now(),
): SearchIndexUpkeep {
  let seen = writes();
  let quietSince = now();
  // What the indexes hold when the server starts is not known: look once.
  let pending = true;
  let merging = false;
  let steps = 0;
  let restUntil = now() + timing.startDelayMs;
  const end = () => {
    merging = false;
    restUntil = now() + steps * timing.restPerStepMs;
    steps = 0;
  };
  const tick = () => {
    const revision = writes();
    if (revision !== seen) {
      seen = revision;
      quietSince = now();
      pending = true;
      if (merging) end();
      return;
    }
    if (!pending || now() - quietSince < timing.quietMs) return;
    if (!merging) {
      if (now() < restUntil) return;
      merging = true;
    }
    try {
      steps += 1;
      if (!merge(timing.pagesPerStep)) {
        pending = false;
        end();
      }
    } catch (error) {
      pending = false;
      end();
      onError(error);
    }
  };
  const timer = setInterval(tick, timing.tickMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
