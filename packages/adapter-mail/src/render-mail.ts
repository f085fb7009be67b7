import type { Mail } from "@psm/core";
import { type MailContent, renderHtml, renderText } from "./content.js";
import { emailVerificationTemplate } from "./templates/email-verification.js";
import { messageReceivedTemplate } from "./templates/message-received.js";
import { passwordResetTemplate } from "./templates/password-reset.js";
import { savedSearchMatchedTemplate } from "./templates/saved-search-matched.js";
import { webhookDisabledTemplate } from "./templates/webhook-disabled.js";

/** A mail ready for nodemailer: addresses, subject, and both body parts. */
export interface RenderedMail {
  from: string;
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

function contentOf(mail: Mail): MailContent {
  switch (mail.kind) {
    case "password_reset":
      return passwordResetTemplate(mail);
    case "email_verification":
      return emailVerificationTemplate(mail);
    case "webhook_disabled":
      return webhookDisabledTemplate(mail);
    case "message_received":
      return messageReceivedTemplate(mail);
    case "saved_search_matched":
      return savedSearchMatchedTemplate(mail);
    default: {
      // A new Mail kind without a template fails to compile here.
      const unhandled: never = mail;
      throw new Error(`No template for mail kind "${(unhandled as Mail).kind}"`);
    }
  }
}

/**
 * RFC 8058 one-click unsubscribe for the mails that carry a link for it: a mail client POSTs
 * `List-Unsubscribe=One-Click` to the URL, and the reader can open it too.
 */
function unsubscribeHeaders(mail: Mail): Record<string, string> {
  if (!("unsubscribeUrl" in mail)) return {};
  return {
    "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** Renders a mail from its template; nodemailer then encodes non-ASCII names and subjects (RFC 2047). */
export function renderMail(mail: Mail, from: string): RenderedMail {
  const content = contentOf(mail);
  return {
    from,
    // Line breaks in a display name would be a header-injection attempt; a
    // name is one line, so any whitespace run becomes a single space.
    to: { name: mail.displayName.replace(/\s+/g, " ").trim(), address: mail.to },
    subject: content.subject,
    text: renderText(content),
    html: renderHtml(content),
    // Machine-sent mail (RFC 3834): vacation and out-of-office responders stay
    // quiet; the second header is what Exchange looks at.
    headers: {
      "Auto-Submitted": "auto-generated",
      "X-Auto-Response-Suppress": "All",
      ...unsubscribeHeaders(mail),
    },
  };
}
