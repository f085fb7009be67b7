import type { Webhook } from "@psm/core";
import type { Flash } from "./env.js";
import type { WriteOutcome } from "./redirect-after.js";

// What a webhook's page tells its owner after each of its forms.

export const SAVED: Flash = { tone: "ok", text: "Your changes to the webhook are saved." };
export const ROTATED: Flash = { tone: "ok", text: "The webhook’s secret is rotated." };
export const ALREADY_ROTATED: Flash = {
  tone: "ok",
  text: "This form already rotated the secret; the new secret was shown once, on the page that rotated it.",
};
export const TEST_SENT: Flash = {
  tone: "ok",
  text: "A test event is on its way. Its delivery shows in the log below once sent: reload in a moment.",
};
export const TURNED_OFF_NO_TEST: Flash = {
  tone: "error",
  text: "The webhook is off: turn it on to send a test event.",
};
export const BAD_SINCE: Flash = { tone: "error", text: "Choose from the list how far back to replay." };
export const DELETED: Flash = { tone: "ok", text: "The webhook is deleted." };
export const ENABLED: WriteOutcome<Webhook> = {
  done: (webhook) =>
    webhook.enabled
      ? { tone: "ok", text: "The webhook is on: new events are delivered again." }
      : { tone: "ok", text: "The webhook is off: nothing is delivered until you turn it on." },
};
// A resent delete form finds the webhook gone, which is what was asked (as a listing's delete).
export const DELETE: WriteOutcome<unknown> = { done: DELETED, refusals: { webhook_not_found: DELETED } };

/** What a replay queued, in words. */
export function replayed({ queued, more }: { queued: number; more: boolean }): Flash {
  if (queued === 0) return { tone: "ok", text: "No events of this webhook’s types happened since then." };
  const events = queued === 1 ? "1 event is" : `${queued} events are`;
  const rest = more ? " More happened than one replay sends: replay again later for the rest." : "";
  return { tone: "ok", text: `${events} queued to be delivered again.${rest}` };
}
