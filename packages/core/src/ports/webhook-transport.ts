/**
 * Where a webhook delivery leaves the process (decisions.md 1.3.0 "Webhooks"). An adapter signs by
 * Standard Webhooks 1.0.0, refuses forbidden addresses (loopback, private, link-local, multicast,
 * metadata) on every lookup, follows no redirect, gives up after a timeout and reads at most a few
 * KiB of the answer. Core decides what an outcome means (retry, disable); the transport only tells.
 */
export interface WebhookTransport {
  /**
   * Whether `url` may receive deliveries now: an absolute http(s) URL whose host resolves only to
   * allowed addresses. Answers a reason fit to show its owner when it may not.
   */
  vet(url: string): Promise<UrlVerdict>;
  /** Sends one signed delivery; never throws for a receiver's failure, only tells it. */
  deliver(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
}

export type UrlVerdict = { allowed: true } | { allowed: false; reason: string };

/** One POST, as Standard Webhooks 1.0.0 describes it. */
export interface OutgoingDelivery {
  url: string;
  /** `webhook-id`: the event id, the same on every attempt and replay. */
  id: string;
  /** `webhook-timestamp`: when this attempt is signed. */
  timestamp: Date;
  /** The exact body that is signed and sent: `{type, timestamp, data}` as JSON. */
  payload: string;
  /** `whsec_…` secrets to sign with: one signature each (two during a rotation's grace). */
  secrets: readonly string[];
}

export type DeliveryOutcome =
  /** A 2xx answer. */
  | { kind: "succeeded"; status: number }
  /** 410 Gone: the receiver asks never to be called again. */
  | { kind: "gone"; status: number }
  /**
   * Anything else: another status, a redirect, a timeout, a refused address, a network error.
   * `retryAfterMs` when the receiver sent a usable `Retry-After`.
   */
  | { kind: "failed"; status: number | null; error: string; retryAfterMs?: number };
