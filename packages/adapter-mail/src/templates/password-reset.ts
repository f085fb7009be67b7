import type { PasswordResetMail } from "@psm/core";
import type { MailContent } from "../content.js";
import { greeting, linkLifetime, paragraph } from "./blocks.js";

/** The subject of every password-reset mail. */
export const PASSWORD_RESET_SUBJECT = "Reset your password";

/** The password-reset mail: greeting, the reset link, when it expires, and what to do if unexpected. */
export function passwordResetTemplate(mail: PasswordResetMail): MailContent {
  return {
    subject: PASSWORD_RESET_SUBJECT,
    blocks: [
      greeting(mail.displayName),
      paragraph(
        "We received a request to reset the password of your account. Follow the link below to choose a new one.",
      ),
      { kind: "link", href: mail.resetUrl, label: "Choose a new password" },
      linkLifetime(mail.expiresInMinutes, "minute"),
      paragraph("If you did not ask for this, you can ignore this mail: your password stays as it is."),
    ],
  };
}
