/** A claimed idempotency key as stored. `result` is null while its first request runs. */
export interface IdempotencyRecord {
  /** The digest of (scope, operation, key): one record per caller, operation and key. */
  id: string;
  /** The digest of the request that claimed it, as the edge computed it. */
  fingerprint: string;
  /** Who holds a running claim: a random value of the request that took it. */
  owner: string;
  /** A running claim may be taken over once this has passed (its request died). */
  leaseUntil: Date;
  /** When the record may be swept. */
  expiresAt: Date;
  /** What the edge kept for replays, stored and returned as given (opaque here). */
  result: string | null;
}

/** What one caller holds: live records, the UTF-8 bytes of their results, and when the first lapses. */
export interface IdempotencyUsage {
  keys: number;
  bytes: number;
  /** The earliest expiry among them; null when there are none. */
  nextExpiry: Date | null;
}

/** A claim as stored: the record, and whose it is (a digest of the caller's scope) when it is counted. */
export type IdempotencyClaim = Omit<IdempotencyRecord, "result"> & { caller?: string };

/** What a claim found. */
export type ClaimOutcome = { claimed: true } | { claimed: false; record: IdempotencyRecord };

/**
 * Storage of idempotency keys. The claim is committed at once, so a second
 * request with the key sees it running; the result is stored by `complete`
 * inside the unit of work that holds the request's own writes.
 */
export interface IdempotencyStore {
  /**
   * Atomically: stores `record` (running, no result) when no record has its id,
   * or when the one there expired at or before `now`, or is still running with
   * a lease that ended at or before `now` (its request died: the claim is taken
   * over). Otherwise stores nothing and answers the record as it is. Of racing
   * claims for one id, exactly one is claimed.
   */
  claim(record: IdempotencyClaim, now: Date): Promise<ClaimOutcome>;
  /** The record under `id`, or null when there is none or it expired at or before `now`. Stores nothing. */
  find(id: string, now: Date): Promise<IdempotencyRecord | null>;
  /**
   * What `caller` holds: its records (claimed with that caller) that expire
   * after `now`, running ones included, and the UTF-8 byte length of their
   * results. Stores nothing.
   */
  usage(caller: string, now: Date): Promise<IdempotencyUsage>;
  /** Stores the result, only while `owner` still holds the running claim. False otherwise. */
  complete(id: string, owner: string, result: string): Promise<boolean>;
  /**
   * Removes a running claim held by `owner` (a result that is not kept, so a
   * retry runs). False, removing nothing, when `owner` no longer holds it.
   */
  release(id: string, owner: string): Promise<boolean>;
  /** Removes every record that expired at or before `now`; answers how many. */
  deleteExpired(now: Date): Promise<number>;
}
