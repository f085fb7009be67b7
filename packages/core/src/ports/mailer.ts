/** A password-reset mail, rendered by the mail adapter's template. */
export interface PasswordResetMail {
  kind: "password_reset";
  to: string;
  displayName: string;
  resetUrl: string;
  expiresInMinutes: number;
}

export type Mail = PasswordResetMail;

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
