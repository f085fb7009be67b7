/** A password-reset token as stored: only its SHA-256 digest. */
export interface ResetToken {
  tokenHash: string;
  userId: string;
  expiresAt: Date;
  createdAt: Date;
}

/** Storage of password-reset tokens. */
export interface ResetTokenRepository {
  insert(token: ResetToken): Promise<void>;
  /**
   * Atomically marks the token used and returns its user, only if it exists,
   * is unused and expires after `now`. Two racing calls: exactly one wins.
   */
  consume(tokenHash: string, now: Date): Promise<string | null>;
  /** Whether the token exists, is unused and unexpired, without consuming it. */
  isValid(tokenHash: string, now: Date): Promise<boolean>;
  /** Removes one token (an undelivered one). */
  delete(tokenHash: string): Promise<void>;
  /** Ends every outstanding token of the user. */
  deleteByUser(userId: string): Promise<void>;
}
