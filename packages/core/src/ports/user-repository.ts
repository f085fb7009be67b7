import type { PageQuery } from "../domain/page.js";
import type { AccountType, User } from "../domain/user.js";

/** Storage of users (profiles are users). Emails are stored normalised. */
export interface UserRepository {
  findById(id: string): Promise<User | null>;
  /**
   * findById that also holds the user's row until the unit of work it runs
   * in ends: another unit that holds or writes the row meanwhile waits for
   * that end, and then reads the row as this unit left it. Account recovery
   * and key creation serialise on it. Outside a unit, a plain findById.
   */
  holdById(id: string): Promise<User | null>;
  /** `email` is already normalised; the match is case-insensitive all the same. */
  findByEmail(email: string): Promise<User | null>;
  /** Throws MarketplaceError `email_taken` when the address (any case) exists. */
  insert(user: User): Promise<void>;
  /** Id descending. */
  list(page: PageQuery): Promise<User[]>;
  /** Null when the user does not exist. */
  updateProfile(
    id: string,
    changes: { displayName?: string; accountType?: AccountType; isAdmin?: boolean },
  ): Promise<User | null>;
  /**
   * Stores a new password hash. With `revokeTokens` the token version is
   * bumped in the same write, ending every JWT issued before. False when absent.
   */
  setPasswordHash(id: string, passwordHash: string, options: { revokeTokens: boolean }): Promise<boolean>;
  /**
   * Records that the address was proven at `at`. The first proof is kept: an
   * address already proven keeps its earlier time. Returns the user as stored
   * afterwards; null when the user does not exist.
   */
  markEmailVerified(id: string, at: Date): Promise<User | null>;
  /**
   * Atomically deletes the user with their listings, API keys, reset and
   * verification tokens and queued mail. Messages are kept. False when absent.
   */
  deleteCascade(id: string): Promise<boolean>;
}
