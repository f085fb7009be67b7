/** How long a key's answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a running claim holds its key. A request still running after this
 * (or one whose process died) lets a retry take the key over; the late first
 * request then cannot store its answer, and its writes roll back.
 */
export const IDEMPOTENCY_LEASE_MS = 10 * 1000;

/** 1 to 255 visible ASCII characters (the IETF draft's and Stripe's bound). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Whether `key` is a well-formed Idempotency-Key value. */
export function isIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
