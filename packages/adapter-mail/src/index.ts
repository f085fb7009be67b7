/**
 * Mail delivery for the marketplace: two implementations of core's `Mailer` port.
 *
 * - `createOutboxMailer({ dir, from })` writes each mail as an RFC 5322 `.eml` file
 *   (temp file, then rename), the default when no SMTP server is configured.
 * - `createSmtpMailer({ url, from })` sends over SMTP (`smtp://` with STARTTLS when
 *   offered, or `smtps://`), mapping failures to `MailDeliveryError` with `permanent`
 *   set for 5xx replies and refused recipients, so the dispatcher knows whether to retry.
 *
 * - `startMailDispatcher(marketplace, options)` sends the marketplace's queued mail on a
 *   timer, one round at a time, for any service that embeds core.
 *
 * Every mail kind has one template (`templates/*.ts`) from which both the plain-text
 * and the HTML part are rendered by `renderMail`.
 */
export {
  type MailDispatcher,
  type MailDispatcherOptions,
  type MailDispatchReport,
  type MailQueueOwner,
  startMailDispatcher,
} from "./dispatcher.js";
export { createOutboxMailer, type OutboxMailerOptions } from "./outbox-mailer.js";
export { type RenderedMail, renderMail } from "./render-mail.js";
export { checkSender } from "./sender.js";
export { createSmtpMailer, type SmtpMailerOptions } from "./smtp-mailer.js";
export { EMAIL_VERIFICATION_SUBJECT } from "./templates/email-verification.js";
export { PASSWORD_RESET_SUBJECT } from "./templates/password-reset.js";
