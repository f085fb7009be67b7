import { type Rounds, startRounds } from "@psm/core";

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

/** A running dispatcher: `poke()` runs a round soon, `stop()` waits for the round in flight. */
export type MailDispatcher = Rounds;

/**
 * Sends a marketplace's queued mail on a timer, one round at a time (core's `startRounds`):
 * a tick that finds a round still running is skipped, so rounds never overlap. The queue lives
 * in storage, so a restarted process picks up where the last one left off.
 *
 * A failed round goes to `onError` and never crashes the process; the timer is
 * unref'd, so it never keeps a process alive on its own.
 */
export function startMailDispatcher(
  owner: MailQueueOwner,
  options: MailDispatcherOptions = {},
): MailDispatcher {
  const { batchSize, onReport } = options;
  return startRounds(
    () => (batchSize === undefined ? owner.mail.dispatchDue() : owner.mail.dispatchDue({ batchSize })),
    {
      intervalMs: options.intervalMs ?? 1_000,
      label: "mail dispatcher",
      onError: options.onError ?? ((error: unknown) => console.error("mail dispatch failed", error)),
      onResult: (report) => {
        if (report.sent + report.retried + report.failed > 0) onReport?.(report);
      },
    },
  );
}
