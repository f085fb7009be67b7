import type { Webhook } from "@psm/core";
import type { FC } from "hono/jsx";
import type { PageContext } from "../render.js";
import { REPLAY_CHOICES } from "../webhook-form.js";
import { Select } from "./field.js";
import { FormPanel } from "./form-panel.js";

/** The buttons that act on the webhook at once: on or off, a test, a new secret, a replay. */
export const WebhookActions: FC<{ ctx: PageContext; webhook: Webhook }> = ({ ctx, webhook }) => {
  const base = `/account/webhooks/${webhook.id}`;
  return (
    <div class="webhook-actions">
      {webhook.enabled ? (
        <FormPanel
          ctx={ctx}
          id="test-title"
          title="Send a test event"
          intro="Sends a webhook.test event to this URL alone; it shows in the delivery log below."
          action={`${base}/test`}
          submit="Send a test event"
          secondary
        />
      ) : null}
      <FormPanel
        ctx={ctx}
        id="enabled-title"
        title={webhook.enabled ? "Turn off" : "Turn on"}
        intro={
          webhook.enabled
            ? "Stops deliveries until you turn it on again. Events in the meantime are not sent."
            : "Deliveries start again with the next event. To send what happened meanwhile, replay it."
        }
        action={`${base}/enabled`}
        submit={webhook.enabled ? "Turn off" : "Turn on"}
        secondary
      >
        <input type="hidden" name="enabled" value={webhook.enabled ? "false" : "true"} />
      </FormPanel>
      <FormPanel
        ctx={ctx}
        id="rotate-title"
        title="Rotate secret"
        intro="Makes a new secret, shown once. The old secret keeps signing beside it for 24 hours, so your program can switch without missing a delivery."
        action={`${base}/rotate`}
        submit="Rotate secret"
        secondary
      />
      <FormPanel
        ctx={ctx}
        id="replay-title"
        title="Replay since"
        intro="Sends again every event this webhook receives since then, with their original ids (webhook-id), so your program can tell repeats."
        action={`${base}/replay`}
        submit="Replay events"
        secondary
      >
        <Select name="since_seconds" label="Replay events from" value="3600" options={REPLAY_CHOICES} />
      </FormPanel>
    </div>
  );
};
