/** The answer kept for an idempotency key: replayed byte for byte. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/** A claimed idempotency key as stored. `answer` is null while its first request runs. */
export interface IdempotencyRecord {
  /** The digest of (scope, method, route, key): one record per caller, route and key. */
  id: string;
  /** The digest of the request that claimed it (method, path, content type, body). */
  fingerprint: string;
  /** Who holds a running claim: a random value of the request that took it. */
  owner: string;
  /** A running claim may be taken over once this has passed (its request died). */
  leaseUntil: Date;
  /** When the record may be swept. */
  expiresAt: Date;
  answer: StoredAnswer | null;
}

/** What a claim found. */
export type ClaimOutcome = { claimed: true } | { claimed: false; record: IdempotencyRecord };

/**
 * Storage of idempotency keys. The claim is committed at once, so a second
 * request with the key sees it running; the answer is stored by `complete`
 * inside the unit of work that holds the request's own writes.
 */
export interface IdempotencyStore {
  /**
   * Atomically: stores `record` (running, no answer) when no record has its id,
   * or when the one there expired at or before `now`, or is still running with
   * a lease that ended at or before `now` (its request died: the claim is taken
   * over). Otherwise stores nothing and answers the record as it is. Of racing
   * claims for one id, exactly one is claimed.
   */
  claim(record: Omit<IdempotencyRecord, "answer">, now: Date): Promise<ClaimOutcome>;
  /** Stores the answer, only while `owner` still holds the running claim. False otherwise. */
  complete(id: string, owner: string, answer: StoredAnswer): Promise<boolean>;
  /** Removes a running claim held by `owner` (an answer that is not kept, so a retry runs). */
  release(id: string, owner: string): Promise<void>;
  /** Removes every record that expired at or before `now`; answers how many. */
  deleteExpired(now: Date): Promise<number>;
}
