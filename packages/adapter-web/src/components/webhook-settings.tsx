import type { Webhook } from "@psm/core";
import type { FC } from "hono/jsx";
import { at } from "./moment.js";
import { WebhookState } from "./webhook-state.js";
import { typeList } from "./webhook-table.js";

/** When the secret a rotation replaced stops signing, if it still signs at `now`. */
export function previousSecretEnd(webhook: Webhook, now: Date): Date | null {
  const end = webhook.secrets[1]?.expiresAt ?? null;
  return end && end.getTime() > now.getTime() ? end : null;
}

/** What the webhook is now: where it sends, what, the note, its state and its secrets. */
export const WebhookSettings: FC<{ webhook: Webhook; now: Date }> = ({ webhook, now }) => {
  const previousEnd = previousSecretEnd(webhook, now);
  return (
    <section class="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <dl class="key-terms">
        <dt>URL</dt>
        <dd class="webhook-url">{webhook.url}</dd>
        <dt>Event types</dt>
        <dd>{typeList(webhook.types)}</dd>
        <dt>Description</dt>
        <dd class="webhook-description">{webhook.description === "" ? "None" : webhook.description}</dd>
        <dt>State</dt>
        <dd>
          <WebhookState webhook={webhook} />
        </dd>
        <dt>Created</dt>
        <dd>{at(webhook.createdAt)}</dd>
        <dt>Secret</dt>
        <dd>
          {previousEnd ? (
            <>Rotated: the previous secret also signs until {at(previousEnd)}.</>
          ) : (
            "One secret signs each delivery."
          )}
        </dd>
      </dl>
    </section>
  );
};
