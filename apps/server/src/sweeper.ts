import type { Marketplace, SweepReport } from "@psm/core";

/** How often expired idempotency keys and sessions are removed. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** A running sweep. */
export interface Sweeper {
  /** Stops the timer and waits for a sweep in flight. */
  stop(): Promise<void>;
}

/**
 * Removes expired idempotency keys (kept 24 hours) and browser sessions on a
 * timer, and once at start. Expired rows are already ignored on read; the
 * sweep only keeps the tables small. A failed sweep is reported and retried
 * at the next tick; the timer never keeps the process alive.
 */
export function startSweeper(
  marketplace: Pick<Marketplace, "maintenance">,
  options: {
    onReport: (report: SweepReport) => void;
    onError: (error: unknown) => void;
  },
): Sweeper {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = running.then(async () => {
      try {
        const report = await marketplace.maintenance.sweepExpired();
        if (Object.values(report).some((removed) => removed > 0)) options.onReport(report);
      } catch (error) {
        options.onError(error);
      }
    });
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
