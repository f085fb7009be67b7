import type { Deps } from "../../deps.js";
import type { UserActor } from "../../domain/actor.js";
import type { Webhook } from "../../domain/webhook.js";
import { MarketplaceError } from "../../errors.js";
import type { WebhookTransport } from "../../ports/webhook-transport.js";
import { requireUuid } from "../access.js";

/** The caller's webhook `id`; another user's, or none, is `webhook_not_found` (its existence is not revealed). */
export async function ownWebhook(deps: Pick<Deps, "repos">, caller: UserActor, id: string): Promise<Webhook> {
  const webhook = await deps.repos.webhooks.findById(
    requireUuid(id, () => new MarketplaceError("webhook_not_found")),
  );
  if (!webhook || webhook.userId !== caller.user.id) throw new MarketplaceError("webhook_not_found");
  return webhook;
}

/** The transport, or `service_unavailable` for an embedder that composed none. */
export function transportOf(deps: Pick<Deps, "webhookTransport">): WebhookTransport {
  if (!deps.webhookTransport) {
    throw new MarketplaceError("service_unavailable", "Webhooks are not configured on this server");
  }
  return deps.webhookTransport;
}

/** Refuses a URL the transport will not deliver to (a private address, a name that does not resolve). */
export async function requireDeliverableUrl(
  deps: Pick<Deps, "webhookTransport">,
  url: string,
): Promise<void> {
  const verdict = await transportOf(deps).vet(url);
  if (!verdict.allowed) {
    throw new MarketplaceError(
      "webhook_url_forbidden",
      `This URL may not receive webhooks: ${verdict.reason}`,
    );
  }
}
