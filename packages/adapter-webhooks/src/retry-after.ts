/** The longest wait a receiver's `Retry-After` may ask for: one day, the schedule's last step. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** IMF-fixdate, RFC 850 and asctime, the three HTTP-date forms RFC 9110 has recipients accept. */
const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * Milliseconds a `Retry-After` value asks to wait from `nowMs`: delta-seconds or an HTTP-date,
 * at most a day. Undefined for anything else (garbage, a negative number) and for a date that
 * has passed, so a malformed header never holds a delivery back.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  if (!HTTP_DATE.some((form) => form.test(text))) return undefined;
  const at = Date.parse(text.endsWith("GMT") ? text : `${text} GMT`);
  if (!Number.isFinite(at) || at <= nowMs) return undefined;
  return Math.min(at - nowMs, MAX_RETRY_AFTER_MS);
}
