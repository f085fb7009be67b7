import type { MessageReceivedMail } from "@psm/core";
import type { MailContent } from "../content.js";
import { greeting, paragraph } from "./blocks.js";

/**
 * Who wrote about which listing, the start of the newest message, and the inbox. Everything in it
 * but the greeting's frame was written by other users: it is passed as text, which the HTML part
 * escapes. The unsubscribe link also travels in the List-Unsubscribe header (render-mail.ts).
 */
export function messageReceivedTemplate(mail: MessageReceivedMail): MailContent {
  return {
    subject: `New message from ${mail.senderName} about “${mail.listingTitle}”`,
    blocks: [
      greeting(mail.displayName),
      paragraph(`${mail.senderName} wrote to you about “${mail.listingTitle}”:`),
      paragraph(mail.preview),
      { kind: "link", href: mail.inboxUrl, label: "Read and reply in your inbox" },
      paragraph(
        "You get one such mail per conversation at most every 15 minutes. To stop mails about new messages, follow the link below (no sign-in needed).",
      ),
      { kind: "link", href: mail.unsubscribeUrl, label: "Stop mails about new messages" },
    ],
  };
}
