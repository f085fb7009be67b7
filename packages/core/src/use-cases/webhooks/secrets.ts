import type { Deps } from "../../deps.js";
import { WEBHOOK_SECRET_PREFIX } from "../../domain/webhook.js";

/** A fresh signing secret: `whsec_` + base64 of 32 random bytes, as Standard Webhooks names them. */
export function newWebhookSecret(deps: Pick<Deps, "random">): string {
  let binary = "";
  for (const byte of deps.random.bytes(32)) binary += String.fromCharCode(byte);
  return `${WEBHOOK_SECRET_PREFIX}${btoa(binary)}`;
}
