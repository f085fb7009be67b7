/** A password-reset mail, rendered by the mail adapter's template. */
export interface PasswordResetMail {
  kind: "password_reset";
  to: string;
  displayName: string;
  resetUrl: string;
  expiresInMinutes: number;
}

/**
 * The address-verification mail sent after sign-up. It must ask the recipient
 * to follow the link only if they created the account: following it proves the
 * address for whoever registered it.
 */
export interface EmailVerificationMail {
  kind: "email_verification";
  to: string;
  displayName: string;
  verifyUrl: string;
  expiresInHours: number;
}

/** Tells an owner that the relay turned webhooks off (a 410, or every retry failed), and why. */
export interface WebhookDisabledMail {
  kind: "webhook_disabled";
  to: string;
  displayName: string;
  /** The webhooks now off, each with the URL its owner gave and the relay's reason. */
  webhooks: { url: string; reason: string }[];
  /** Where the owner turns them back on. */
  manageUrl: string;
}

/**
 * Tells a receiver that someone wrote about a listing: who, which listing, the start of the newest
 * message as plain text (another user wrote it: templates escape it), and the inbox. Carries a
 * one-click unsubscribe (RFC 8058).
 */
export interface MessageReceivedMail {
  kind: "message_received";
  to: string;
  displayName: string;
  senderName: string;
  listingTitle: string;
  /** The first 200 characters of the newest message. */
  preview: string;
  inboxUrl: string;
  /** POSTed by a mail client (List-Unsubscribe-Post) or opened by the reader: turns message mail off. */
  unsubscribeUrl: string;
}

/**
 * New listings that match the reader's saved searches: one saved search's ("instant", at most
 * hourly) or every one's (the daily digest). Titles and names were written by users: templates
 * escape them. Carries a one-click unsubscribe (RFC 8058) that turns saved-search mail off.
 */
export interface SavedSearchMatchedMail {
  kind: "saved_search_matched";
  to: string;
  displayName: string;
  digest: boolean;
  searches: readonly { name: string; listings: readonly { title: string; url: string }[] }[];
  /** New matches not named, beyond SAVED_SEARCH_MAIL_LISTINGS. */
  more: number;
  manageUrl: string;
  unsubscribeUrl: string;
}

export type Mail =
  | PasswordResetMail
  | EmailVerificationMail
  | WebhookDisabledMail
  | MessageReceivedMail
  | SavedSearchMatchedMail;

/** Delivers mail. Throws on failure; `MailDeliveryError.permanent` says whether a retry can help. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close?(): Promise<void>;
}

/** A delivery failure; `permanent` failures (a 5xx reply, a refused address) are not retried. */
export class MailDeliveryError extends Error {
  override readonly name = "MailDeliveryError";
  readonly permanent: boolean;
  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.permanent = options.permanent;
  }
}
