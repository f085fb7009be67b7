/** Options of startRounds. */
export interface RoundsOptions<R> {
  /** Milliseconds between rounds (a positive number). */
  intervalMs: number;
  /** Told of a round that rejected or threw. The loop keeps going. */
  onError: (error: unknown) => void;
  /** Told of each round's result. */
  onResult?: (result: R) => void;
  /** Names the loop in the error thrown for a bad interval (default "rounds"). */
  label?: string;
}

/** A running loop of rounds. */
export interface Rounds {
  /**
   * Runs a round on a later turn of the event loop (new work should not wait for the next
   * tick, nor run on the caller's own turn); during a round, runs one more right after it.
   */
  poke(): void;
  /** Stops the timer and resolves once the round in flight, if any, has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `round` on a timer, one at a time: a tick that finds a round still running is skipped,
 * so rounds never overlap. The work a round does is expected to live in storage, so a
 * restarted process picks up where the last one left off.
 *
 * A failed round goes to `onError` and never crashes the process, nor does a callback that
 * throws; the timer is unref'd where the runtime has unref (Node), so it never keeps a process
 * alive on its own. What the mail dispatcher and the webhook relay share.
 */
export function startRounds<R>(round: () => Promise<R>, options: RoundsOptions<R>): Rounds {
  const { intervalMs, onError, onResult } = options;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new RangeError(`${options.label ?? "rounds"}: intervalMs must be a positive number`);
  }
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  // A callback that throws must not turn into an unhandled rejection.
  const tell = <T>(callback: ((value: T) => void) | undefined, value: T) => {
    try {
      callback?.(value);
    } catch {
      // the embedder's callback failed; the loop carries on
    }
  };

  const run = (): void => {
    if (stopped || running) return;
    // Inside the executor, a round that throws instead of rejecting is caught too.
    running = new Promise<R>((resolve) => resolve(round()))
      .then(
        (result) => tell(onResult, result),
        (error: unknown) => tell(onError, error),
      )
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          later(run);
        }
      });
  };

  const timer = setInterval(run, intervalMs);
  // Node's timers keep the process alive unless unref'd; other runtimes' timers have no unref.
  (timer as { unref?: () => void }).unref?.();
  return {
    poke() {
      if (stopped) return;
      if (running) again = true;
      else later(run);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * On the next turn of the event loop, so the caller that pokes (a request) is answered first:
 * nothing of the round adds to its time. setImmediate where the runtime has one (Node, Bun; as
 * the mail dispatcher always did), else a zero timeout. Looked up at each call, not once, so a
 * test's fake timers apply.
 */
function later(fn: () => void): void {
  const { setImmediate } = globalThis as { setImmediate?: (fn: () => void) => unknown };
  if (setImmediate) setImmediate(fn);
  else setTimeout(fn, 0);
}
