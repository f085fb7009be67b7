/**
 * Why a password is being verified, so a hasher can keep each kind of work in
 * its own bounded queue: `"login"` proves a password to sign in (log-in, also
 * against a dummy hash for an unknown address); `"confirm"` is a signed-in user
 * re-proving theirs (change password), a write that is rate limited far more
 * loosely than logins and so must never queue in front of them.
 */
export type VerifyPurpose = "login" | "confirm";

/**
 * Hashes passwords into PHC strings. Implementations must not block the event
 * loop (argon2id through Node's asynchronous crypto.argon2 in apps/server).
 *
 * A hasher may bound its work: when the queue for a kind of work is full, it
 * refuses at once with `MarketplaceError("service_unavailable", ..., { retryAfter })`
 * (HTTP 503 with Retry-After) rather than letting callers pile up work.
 */
export interface PasswordHasher {
  /** A PHC string of `password` under today's parameters; may refuse with `service_unavailable`. */
  hash(password: string): Promise<string>;
  /**
   * Whether `password` matches `hash`. False for a wrong password or a malformed
   * hash; never throws for those. `purpose` (default `"login"`) picks the queue:
   * a flood of one purpose must not delay the other, and each may refuse with
   * `service_unavailable` when its own queue is full.
   */
  verify(hash: string, password: string, purpose?: VerifyPurpose): Promise<boolean>;
  /** Whether the hash was made with weaker parameters than today's and should be redone at login. */
  needsRehash(hash: string): boolean;
}
