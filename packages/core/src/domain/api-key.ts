/** An API key as stored: only the SHA-256 digest of the secret is kept. */
export interface ApiKey {
  id: string;
  userId: string;
  name: string;
  /** Lowercase hex SHA-256 of the full key value. */
  keyHash: string;
  isActive: boolean;
  lastUsed: Date | null;
  createdAt: Date;
}

/** The fixed prefix of every key value; matches the package scope. */
export const API_KEY_PREFIX = "psm_";
/** `psm_` then 64 lowercase hex characters. */
export const API_KEY_PATTERN = /^psm_[0-9a-f]{64}$/;
/** `last_used` is written at most this often per key. */
export const LAST_USED_INTERVAL_MS = 60_000;

/** Whether last_used should be written at `now`. */
export function shouldTouchLastUsed(key: Pick<ApiKey, "lastUsed">, now: Date): boolean {
  return key.lastUsed === null || now.getTime() - key.lastUsed.getTime() >= LAST_USED_INTERVAL_MS;
}
