import type { EmailVerificationMail } from "@psm/core";
import type { MailContent } from "../content.js";
import { greeting, linkLifetime, paragraph } from "./blocks.js";

/** The subject of every address-verification mail. */
export const EMAIL_VERIFICATION_SUBJECT = "Confirm your email address";

/**
 * The mail sent after sign-up: the verification link, when it expires, and,
 * before the link, the condition for following it. Anyone can sign up with an
 * address they do not own, and following the link proves the address for that
 * account, so someone who did not create it must leave the link alone.
 */
export function emailVerificationTemplate(mail: EmailVerificationMail): MailContent {
  return {
    subject: EMAIL_VERIFICATION_SUBJECT,
    blocks: [
      greeting(mail.displayName),
      paragraph(
        "An account was created on the marketplace with this email address. Follow the link below only if you created it yourself.",
      ),
      paragraph(
        "If you did not create it, do not follow the link: ignore this mail. To take the address back, ask for a password reset from the sign-in page; completing it ends every session and API key the account had.",
      ),
      { kind: "link", href: mail.verifyUrl, label: "Yes, I created this account" },
      linkLifetime(mail.expiresInHours, "hour"),
    ],
  };
}
