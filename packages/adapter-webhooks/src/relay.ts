import { type Rounds, startRounds } from "@psm/core";

/** What one relay round did: events fanned out to deliveries, and how those deliveries went. */
export interface WebhookRelayReport {
  fannedOut: number;
  delivered: number;
  retried: number;
  failed: number;
  /** Whether more may be waiting: the relay then runs the next round at once. */
  more?: boolean;
}

/**
 * What the relay needs of a marketplace: anything with a `webhooks.relay()`. Typed by shape, like
 * the mail dispatcher's `MailQueueOwner`, so this package does not follow the rest of the
 * Marketplace type.
 */
export interface WebhookRelayOwner {
  webhooks: {
    /** Fans new events out to deliveries, then sends the deliveries that are due; rejects when storage fails. */
    relay(): Promise<WebhookRelayReport>;
  };
}

/** Options of startWebhookRelay; every one has a default. */
export interface WebhookRelayOptions {
  /** Milliseconds between rounds (default 1000). */
  intervalMs?: number;
  /** Told of a round that failed (default: console.error). The relay keeps going. */
  onError?: (error: unknown) => void;
  /** Told of each round that fanned out or delivered, retried or gave up on something. */
  onReport?: (report: WebhookRelayReport) => void;
}

/** A running relay: `poke()` runs a round soon, `stop()` waits for the round in flight. */
export type WebhookRelay = Rounds;

/**
 * Runs `owner.webhooks.relay()` on a timer, one round at a time (core's `startRounds`, the mail
 * dispatcher's loop): rounds never overlap, a round that leaves more is followed by the next at
 * once, a failed round goes to `onError`, and the timer is unref'd. The work lives in storage, so a restarted process picks up where the last one left off.
 */
export function startWebhookRelay(owner: WebhookRelayOwner, options: WebhookRelayOptions = {}): WebhookRelay {
  const { onReport } = options;
  const rounds: WebhookRelay = startRounds(() => owner.webhooks.relay(), {
    intervalMs: options.intervalMs ?? 1_000,
    label: "webhook relay",
    onError: options.onError ?? ((error: unknown) => console.error("webhook relay failed", error)),
    onResult: (report) => {
      // A burst of events (a listing burst's matches) is fanned out round after round, not one
      // round a second; other work still runs between two rounds.
      if (report.more) rounds.poke();
      if (report.fannedOut + report.delivered + report.retried + report.failed > 0) onReport?.(report);
    },
  });
  return rounds;
}
