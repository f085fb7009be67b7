import type {
  DeliveryOutcome,
  OutgoingDelivery,
  UrlVerdict,
  WebhookTransport,
} from "../../ports/webhook-transport.js";

/** A WebhookTransport that records what it was asked to send and answers as scripted. */
export interface FakeWebhookTransport extends WebhookTransport {
  readonly sent: OutgoingDelivery[];
  /** The next outcomes, in order; once spent, every delivery succeeds with 200. */
  answer(...outcomes: DeliveryOutcome[]): void;
  /** URLs whose host is here are refused by `vet`, as a private address would be. */
  readonly forbiddenHosts: Set<string>;
}

/** A transport for tests: no network; `vet` refuses the hosts in `forbiddenHosts`. */
export function createFakeWebhookTransport(): FakeWebhookTransport {
  const sent: OutgoingDelivery[] = [];
  const queue: DeliveryOutcome[] = [];
  const forbiddenHosts = new Set<string>(["127.0.0.1", "localhost", "169.254.169.254"]);
  return {
    sent,
    forbiddenHosts,
    answer(...outcomes) {
      queue.push(...outcomes);
    },
    async vet(url: string): Promise<UrlVerdict> {
      const host = new URL(url).hostname;
      return forbiddenHosts.has(host)
        ? { allowed: false, reason: `${host} is a private address` }
        : { allowed: true };
    },
    async deliver(delivery) {
      sent.push({ ...delivery, secrets: [...delivery.secrets] });
      return queue.shift() ?? { kind: "succeeded", status: 200 };
    },
  };
}
