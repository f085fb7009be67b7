/** How long a key's answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a running claim holds its key. A request still running after this
 * (or one whose process died) lets a retry take the key over; the late first
 * request then cannot store its answer, and its writes roll back.
 */
export const IDEMPOTENCY_LEASE_MS = 10 * 1000;

/**
 * What one caller (a scope of runIdempotent) may hold in stored answers at
 * once, over IDEMPOTENCY_TTL_MS: this many keys, and this many bytes of
 * answers (UTF-8, as stored). Past either, a new key is refused
 * (`idempotency_limit_reached`, 429) until the caller's oldest key lapses;
 * replays of keys held go on. See core's DESIGN.md, "Idempotency bounds".
 */
export const IDEMPOTENCY_MAX_KEYS_PER_CALLER = 10_000;
export const IDEMPOTENCY_MAX_BYTES_PER_CALLER = 16 * 1024 * 1024;

/** 1 to 255 visible ASCII characters (the IETF draft's and Stripe's bound). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Whether `key` is a well-formed Idempotency-Key value. */
export function isIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
