import type { PasswordResetMail } from "@psm/core";
import type { MailContent } from "../content.js";

/** The subject of every password-reset mail. */
export const PASSWORD_RESET_SUBJECT = "Reset your password";

function minutes(count: number): string {
  return count === 1 ? "1 minute" : `${count} minutes`;
}

/** The password-reset mail: greeting, the reset link, when it expires, and what to do if unexpected. */
export function passwordResetTemplate(mail: PasswordResetMail): MailContent {
  return {
    subject: PASSWORD_RESET_SUBJECT,
    blocks: [
      { kind: "paragraph", text: `Hello ${mail.displayName},` },
      {
        kind: "paragraph",
        text: "We received a request to reset the password of your account. Follow the link below to choose a new one.",
      },
      { kind: "link", href: mail.resetUrl, label: "Choose a new password" },
      {
        kind: "paragraph",
        text: `The link expires in ${minutes(mail.expiresInMinutes)} and can be used once.`,
      },
      {
        kind: "paragraph",
        text: "If you did not ask for this, you can ignore this mail: your password stays as it is.",
      },
    ],
  };
}
