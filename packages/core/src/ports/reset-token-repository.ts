/** A single-use mailed token (password reset, address verification) as stored: only its SHA-256 digest. */
export interface ResetToken {
  tokenHash: string;
  userId: string;
  expiresAt: Date;
  createdAt: Date;
}

/**
 * Storage of single-use mailed tokens of one purpose. Password-reset tokens
 * use it; address-verification tokens use the same contract in a store of
 * their own (VerificationTokenRepository), so neither can stand in for the other.
 */
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

/** An address-verification token (the link mailed at sign-up): the same shape as a reset token. */
export type VerificationToken = ResetToken;

/** Storage of address-verification tokens: the reset-token contract, in a store of its own. */
export type VerificationTokenRepository = ResetTokenRepository;
