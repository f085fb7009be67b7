/**
 * The signed tokens this process has verified, with what they said, until they expire: a token
 * presented again skips its signature check. The check is an HMAC that jose runs through WebCrypto
 * (a round trip to the thread pool), about a fifth of a signed-in read's CPU (docs/performance.md).
 * What the token grants is still checked on every use by the caller (the token version against
 * the user's row, the grant against storage), so keeping a verified token changes no answer.
 *
 * Bounded in entries; the least recently verified goes first. Only verified tokens are kept, so
 * forged ones cannot fill it; the key is the whole token, signature included.
 */
export interface VerifiedTokens<T> {
  /** What `token` said, if it was verified and is still valid at `nowSeconds`. */
  get(token: string, nowSeconds: number): T | undefined;
  /** Keeps what a verified `token` said, valid from `notBefore` (if set) until before `expires`. */
  set(token: string, value: T, expires: number, notBefore?: number): void;
}

interface Kept<T> {
  value: T;
  expires: number;
  notBefore: number;
}

/** Tokens kept by default: a few MiB at most, and more signed-in callers than one process serves at once. */
const DEFAULT_ENTRIES = 4096;
/** A token longer than this is verified every time rather than kept. */
const MAX_TOKEN_LENGTH = 4096;

export function createVerifiedTokens<T>(maxEntries = DEFAULT_ENTRIES): VerifiedTokens<T> {
  const kept = new Map<string, Kept<T>>();
  return {
    get(token, nowSeconds) {
      const entry = kept.get(token);
      if (entry === undefined) return undefined;
      // jose's rule: valid while now < exp, and not before nbf.
      if (nowSeconds >= entry.expires) {
        kept.delete(token);
        return undefined;
      }
      return nowSeconds < entry.notBefore ? undefined : entry.value;
    },
    set(token, value, expires, notBefore = Number.NEGATIVE_INFINITY) {
      if (token.length > MAX_TOKEN_LENGTH || maxEntries <= 0) return;
      kept.delete(token);
      kept.set(token, { value, expires, notBefore });
      // Map keeps insertion order: the first key is the one verified longest ago.
      while (kept.size > maxEntries) {
        const oldest = kept.keys().next().value;
        if (oldest === undefined) break;
        kept.delete(oldest);
      }
    },
  };
}
