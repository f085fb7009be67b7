/** The kinds of mail the marketplace sends. */
export type MailKind =
  | "password_reset"
  | "email_verification"
  | "webhook_disabled"
  | "message_received"
  | "saved_search_matched";

export type MailJobStatus = "pending" | "sent" | "failed";

/**
 * A durable intent to send one mail. It names the user and the kind, never a
 * raw token: the dispatcher mints the token (reset or verification) when it sends.
 */
export interface MailJob {
  id: string;
  userId: string;
  kind: MailKind;
  /**
   * What the mail is about, when its kind needs it: a conversation (notification/conversationKey),
   * a saved search's id, or SAVED_SEARCH_DIGEST_REF for the daily digest of every saved search.
   */
  ref: string | null;
  status: MailJobStatus;
  attempts: number;
  /** When the job may next be claimed (also the lease end while one is sending). */
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** Retry policy of the mail dispatcher. */
export const MAIL_RETRY = {
  maxAttempts: 8,
  baseDelayMs: 2_000,
  maxDelayMs: 10 * 60_000,
  leaseMs: 60_000,
} as const;
