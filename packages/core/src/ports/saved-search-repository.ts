import type { PageQuery } from "../domain/page.js";
import type { SavedSearch } from "../domain/saved-search.js";

/** A listing that matched a saved search, as recorded (at most once per pair). */
export interface SavedSearchMatch {
  savedSearchId: string;
  listingId: string;
  matchedAt: Date;
}

/**
 * Storage of saved searches; the caller checks ownership (core does, on every access). Each saved
 * search is indexed under core's savedSearchMatchKey, so matching reads only the candidates of a
 * listing (findCandidates) however many searches are saved.
 */
export interface SavedSearchRepository {
  /**
   * Stores the saved search unless its user already has `max`: the count and the insert are one
   * atomic step, also against concurrent inserts for the same user. False, storing nothing, at the
   * limit. An unknown user: `user_not_found`.
   */
  insertWithinLimit(search: SavedSearch, max: number): Promise<boolean>;
  findById(id: string): Promise<SavedSearch | null>;
  /** One user's saved searches, id descending (newest first). */
  listByUser(userId: string, page: PageQuery): Promise<SavedSearch[]>;
  /** Removes the saved search and its recorded matches. False when it did not exist. */
  delete(id: string): Promise<boolean>;
  /** Every saved search whose match key (savedSearchMatchKey) is one of `keys`, in any order. */
  findCandidates(keys: readonly string[]): Promise<SavedSearch[]>;
  /**
   * Records that listings matched saved searches, in one step, and answers the matches recorded
   * now: a pair recorded before is not again (so its owner is told once), nor one whose saved
   * search no longer exists. Pairs repeated within `matches` count once.
   */
  recordMatches(matches: readonly SavedSearchMatch[]): Promise<SavedSearchMatch[]>;
  /**
   * Matches not yet mailed to `userId`, of one saved search or (null) of all theirs, oldest first,
   * at most `limit`.
   */
  unmailedMatches(userId: string, savedSearchId: string | null, limit: number): Promise<SavedSearchMatch[]>;
  /** Marks the matches mailed at `at`, or (null) not mailed again: a mail that failed to go. */
  markMailed(matches: readonly SavedSearchMatch[], at: Date | null): Promise<void>;
  /**
   * The seq of the last event matched against saved searches, held for the caller's unit of work;
   * null when another process holds it. Only meaningful inside a unit of work.
   */
  takeMatchCursor(): Promise<number | null>;
  /** Moves the match cursor forward (within the unit of work that took it). */
  advanceMatchCursor(seq: number): Promise<void>;
}
