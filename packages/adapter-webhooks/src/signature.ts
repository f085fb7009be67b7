import type { OutgoingDelivery } from "@psm/core";
import { Webhook } from "standardwebhooks";

/** The three Standard Webhooks headers of one delivery attempt. */
export interface SignatureHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * Signs a delivery with each of its secrets through the `standardwebhooks` library: one
 * `v1,<base64>` per secret, space-separated, over `id.timestamp.payload`, so a receiver holding
 * either secret of a rotation verifies it. Throws on a caller's mistake (no secret, a secret
 * that is not base64): that is a bug to surface, not a receiver's failure.
 */
export function signatureHeaders(delivery: OutgoingDelivery): SignatureHeaders {
  if (delivery.secrets.length === 0) throw new RangeError("webhook delivery: at least one secret is needed");
  const signatures = delivery.secrets.map((secret) =>
    new Webhook(secret).sign(delivery.id, delivery.timestamp, delivery.payload),
  );
  return {
    "webhook-id": delivery.id,
    "webhook-timestamp": String(Math.floor(delivery.timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
