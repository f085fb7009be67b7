import type { ApiKey } from "../domain/api-key.js";
import type { PageQuery } from "../domain/page.js";
import type { User } from "../domain/user.js";

/** Storage of API keys by digest. */
export interface ApiKeyRepository {
  /** Throws MarketplaceError `internal_error` on a digest collision (never expected). */
  insert(key: ApiKey): Promise<void>;
  findById(id: string): Promise<ApiKey | null>;
  /** Lookup by the SHA-256 hex digest of the key value, active or not. */
  findByHash(keyHash: string): Promise<ApiKey | null>;
  /**
   * `findByHash` with the key's user read in the same statement (`user` null when it is gone).
   * Optional: a storage whose every call is a round trip implements it (PostgreSQL), so that a
   * keyed request reads its credential in one; without it (SQLite, where two in-process lookups
   * are cheaper than a join's mapping), authentication calls findByHash, then users.findById.
   */
  findByHashWithUser?(keyHash: string): Promise<{ key: ApiKey; user: User | null } | null>;
  /** One user's keys (or everyone's when userId is undefined), id descending. */
  list(userId: string | undefined, page: PageQuery): Promise<ApiKey[]>;
  /** Sets is_active false. False when the key does not exist. */
  deactivate(id: string): Promise<boolean>;
  /**
   * Sets is_active false on every key of the user (with `createdBefore`, only
   * on those created strictly before it), in one statement: a key whose insert
   * committed before the call began is among them. Answers how many active
   * keys it deactivated; 0 for an unknown user.
   */
  deactivateByUser(userId: string, createdBefore?: Date): Promise<number>;
  /**
   * Replaces a key, in one transaction: `replacement` is inserted and the key `id` expires at
   * `expiresAt` (or at its own expiry, if earlier). Nothing is written, and the answer is false,
   * unless the key exists, is active and has not expired at `now`.
   */
  rotate(id: string, replacement: ApiKey, expiresAt: Date, now: Date): Promise<boolean>;
  /** Sets last_used to `now` unless `now - lastUsed < minIntervalMs`. */
  touchLastUsed(id: string, now: Date, minIntervalMs: number): Promise<void>;
}
