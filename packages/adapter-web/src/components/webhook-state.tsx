import type { Webhook } from "@psm/core";
import type { FC } from "hono/jsx";

/**
 * Whether a webhook delivers: on, turned off by its owner, or turned off by the relay (a 410, or
 * the last retry failing) with the reason it gave, as plain text beside the badge: a reason can be
 * long, and a badge is for one or two words.
 */
export const WebhookState: FC<{ webhook: Webhook }> = ({ webhook }) => {
  if (webhook.enabled) return <span class="badge badge-active">Enabled</span>;
  if (webhook.disabledReason === null) return <span class="badge badge-paused">Off by you</span>;
  return (
    <>
      <span class="badge badge-expired">Turned off</span>
      <span class="state-reason">: {webhook.disabledReason}</span>
    </>
  );
};
