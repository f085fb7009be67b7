import type { Scope } from "./scopes.js";

/** An API key as stored: only the SHA-256 digest of the secret is kept. */
export interface ApiKey {
  id: string;
  userId: string;
  name: string;
  /** Lowercase hex SHA-256 of the full key value. */
  keyHash: string;
  /** The first KEY_PREFIX_LENGTH characters of the value, to tell keys apart; null for keys made before 1.3. */
  prefix: string | null;
  /** What the key is limited to; null: everything its user may do (every key made before 1.3). */
  scopes: readonly Scope[] | null;
  /** When the key stops working; null: never. A rotation sets it on the key it replaces. */
  expiresAt: Date | null;
  isActive: boolean;
  lastUsed: Date | null;
  createdAt: Date;
}

/** The fixed prefix of every key value; matches the package scope. */
export const API_KEY_PREFIX = "psm_";
/** `psm_` then 64 lowercase hex characters. */
export const API_KEY_PATTERN = /^psm_[0-9a-f]{64}$/;
/** How much of a key's value is kept to tell keys apart: `psm_` and 8 of its 64 hex digits. */
export const KEY_PREFIX_LENGTH = 12;
/** The latest expiry a key may be given, from its creation. */
export const MAX_KEY_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
/** How long a rotated key keeps working beside its replacement, by default and at most. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
export const MAX_ROTATION_GRACE_SECONDS = 604_800;

/** Why a stored key does not authenticate at `now`, or null when it does. */
export function keyRefusal(
  key: Pick<ApiKey, "isActive" | "expiresAt">,
  now: Date,
): "revoked" | "expired" | null {
  if (!key.isActive) return "revoked";
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return null;
}

/** `last_used` is written at most this often per key. */
export const LAST_USED_INTERVAL_MS = 60_000;

/** Whether last_used should be written at `now`. */
export function shouldTouchLastUsed(key: Pick<ApiKey, "lastUsed">, now: Date): boolean {
  return key.lastUsed === null || now.getTime() - key.lastUsed.getTime() >= LAST_USED_INTERVAL_MS;
}
