/** What one round of `dispatchDue` did, as core's `marketplace.mail.dispatchDue` reports it. */
export interface MailDispatchReport {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * What the dispatcher needs of a marketplace: core's `Marketplace` fits, and so
 * does anything with the same `mail.dispatchDue`. Typed by shape so this package
 * does not follow the rest of the Marketplace type.
 */
export interface MailQueueOwner {
  mail: {
    /** Queues what is pending, then sends the mail that is due; rejects when storage fails. */
    dispatchDue(options?: { batchSize?: number }): Promise<MailDispatchReport>;
  };
}

/** Options of startMailDispatcher; every one has a default. */
export interface MailDispatcherOptions {
  /** Milliseconds between rounds (default 1000). */
  intervalMs?: number;
  /** Mails per round, handed to `dispatchDue` (default: the marketplace's own). */
  batchSize?: number;
  /** Told of a round that failed (default: console.error). The dispatcher keeps going. */
  onError?: (error: unknown) => void;
  /** Told of each round that sent, retried or gave up on at least one mail. */
  onReport?: (report: MailDispatchReport) => void;
}

/** A running dispatcher. */
export interface MailDispatcher {
  /**
   * Runs a round on the next turn of the event loop (a new reset request should
   * not wait for the next tick); during a round, runs one more right after it.
   */
  poke(): void;
  /** Stops the timer and resolves once the round in flight, if any, has ended. */
  stop(): Promise<void>;
}

/**
 * Sends a marketplace's queued mail on a timer, one round at a time: a tick that
 * finds a round still running is skipped, so rounds never overlap. The queue lives
 * in storage, so a restarted process picks up where the last one left off.
 *
 * A failed round goes to `onError` and never crashes the process; the timer is
 * unref'd, so it never keeps a process alive on its own.
 */
export function startMailDispatcher(
  owner: MailQueueOwner,
  options: MailDispatcherOptions = {},
): MailDispatcher {
  const intervalMs = options.intervalMs ?? 1_000;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new RangeError("mail dispatcher: intervalMs must be a positive number");
  }
  const { batchSize } = options;
  const onError = options.onError ?? ((error: unknown) => console.error("mail dispatch failed", error));
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  // A callback that throws must not turn into an unhandled rejection.
  const tell = <T>(callback: ((value: T) => void) | undefined, value: T) => {
    try {
      callback?.(value);
    } catch {
      // the embedder's callback failed; the dispatcher carries on
    }
  };

  const round = (): void => {
    if (stopped) return;
    if (running) return;
    running = new Promise<MailDispatchReport>((resolve) =>
      // Inside the executor, a dispatchDue that throws instead of rejecting is caught too.
      resolve(batchSize === undefined ? owner.mail.dispatchDue() : owner.mail.dispatchDue({ batchSize })),
    )
      .then(
        (report) => {
          if (report.sent + report.retried + report.failed > 0) tell(options.onReport, report);
        },
        (error: unknown) => tell(onError, error),
      )
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          setImmediate(round);
        }
      });
  };

  const timer = setInterval(round, intervalMs);
  timer.unref();
  return {
    // On the next turn of the event loop, so the request that pokes is answered
    // first: nothing of the round (a lookup, a queued job, a send) adds to its
    // time. better-sqlite3 would otherwise run the round's first queries on the
    // request's own turn.
    poke() {
      if (stopped) return;
      if (running) again = true;
      else setImmediate(round);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
