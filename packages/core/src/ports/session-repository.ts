/** A signed-in browser session as stored: only the SHA-256 digest of its token. */
export interface Session {
  tokenHash: string;
  userId: string;
  /** The user's token version when the session began: a password change since ends it. */
  tokenVersion: number;
  createdAt: Date;
  expiresAt: Date;
}

/** Storage of browser sessions (the web interface's cookie). Missing rows give null, never a throw. */
export interface SessionRepository {
  /** Throws `user_not_found` when the user does not exist. */
  insert(session: Session): Promise<void>;
  /** The session when it exists and expires after `now`; null otherwise. */
  find(tokenHash: string, now: Date): Promise<Session | null>;
  /** Ends one session; nothing happens when it does not exist. */
  delete(tokenHash: string): Promise<void>;
  /** Removes every session that expired at or before `now`; answers how many. */
  deleteExpired(now: Date): Promise<number>;
}
