import type { WebhookDisabledMail } from "@psm/core";
import type { MailContent } from "../content.js";
import { greeting, paragraph } from "./blocks.js";

/** The subject of the mail telling an owner that webhooks were turned off. */
export const WEBHOOK_DISABLED_SUBJECT = "A webhook of yours was turned off";

/**
 * Names each webhook turned off (by the URL its owner gave) with the relay's reason, and where to
 * turn it back on. URLs and reasons are rendered as text: the HTML part escapes them.
 */
export function webhookDisabledTemplate(mail: WebhookDisabledMail): MailContent {
  const many = mail.webhooks.length > 1;
  return {
    subject: many ? "Webhooks of yours were turned off" : WEBHOOK_DISABLED_SUBJECT,
    blocks: [
      greeting(mail.displayName),
      paragraph(
        many
          ? "We stopped sending events to these webhooks because their receivers kept failing:"
          : "We stopped sending events to this webhook because its receiver kept failing:",
      ),
      ...mail.webhooks.map((webhook) => paragraph(`${webhook.url}: ${webhook.reason}`)),
      paragraph(
        "Events that happen while a webhook is off are still in your event feed. Once the receiver works again, turn the webhook back on and replay what it missed.",
      ),
      { kind: "link", href: mail.manageUrl, label: "Manage your webhooks" },
    ],
  };
}
