import type { PageQuery } from "../domain/page.js";
import type { SavedSearch } from "../domain/saved-search.js";

/** A listing that matched a saved search, as recorded (at most once per pair). */
export interface SavedSearchMatch {
  savedSearchId: string;
  listingId: string;
  matchedAt: Date;
}

/** The most of a user's events one unmailedMatches looks through. */
export const UNMAILED_SCAN_EVENTS = 5_000;

/** What unmailedMatches answers. */
export interface UnmailedMatches {
  matches: SavedSearchMatch[];
  /** The seq the read got to; null when it found no event to read. */
  through: number | null;
}

/** Saved searches' mailed cursors (the seq their mail got to), by saved search id. */
export type MailedCursors = Readonly<Record<string, number>>;

/**
 * Storage of saved searches; the caller checks ownership (core does, on every access). Each saved
 * search is indexed under core's savedSearchMatchKey, so matching reads only the candidates of a
 * listing (findCandidates) however many searches are saved.
 */
export interface SavedSearchRepository {
  /**
   * Stores the saved search unless its user already has `max`: the count and the insert are one
   * atomic step, also against concurrent inserts for the same user. False, storing nothing, at the
   * limit. An unknown user: `user_not_found`. Its mailed cursor starts at the end of the event log.
   */
  insertWithinLimit(search: SavedSearch, max: number): Promise<boolean>;
  findById(id: string): Promise<SavedSearch | null>;
  /** One user's saved searches, id descending (newest first). */
  listByUser(userId: string, page: PageQuery): Promise<SavedSearch[]>;
  /**
   * Removes the saved search. False when it did not exist. Its recorded matches may stay (they are
   * keyed by listing, for cheap writes): none is told or mailed again, its id never coming back.
   */
  delete(id: string): Promise<boolean>;
  /** Every saved search whose match key (savedSearchMatchKey) is one of `keys`, in any order. */
  findCandidates(keys: readonly string[]): Promise<SavedSearch[]>;
  /**
   * Records that listings matched saved searches, in one step, and answers the matches recorded
   * now: a pair recorded before is not again (so its owner is told once), nor one whose saved
   * search or listing no longer exists. Pairs repeated within `matches` count once. A listing's
   * recorded matches go when it is deleted (with its author too), so none outlives it.
   */
  recordMatches(matches: readonly SavedSearchMatch[]): Promise<SavedSearchMatch[]>;
  /**
   * The matches not yet mailed to `userId`, of one saved search of theirs or (null) of all of them:
   * read from their `saved_search.matched` events after each saved search's mailed cursor (so
   * recording a match writes nothing more for its mail), oldest first, at most `limit`. The read
   * looks through at most UNMAILED_SCAN_EVENTS of the user's events, whatever their type, so a
   * user with a busy log costs one mail a bounded read. `through` is how far the read got: every
   * match of those saved searches up to it is in `matches` or was mailed before.
   */
  unmailedMatches(userId: string, savedSearchId: string | null, limit: number): Promise<UnmailedMatches>;
  /**
   * Counts the matches of the user's saved search (null: of all theirs) up to `through` as mailed:
   * moves their mailed cursors forward (never back). Answers the cursors as they were, which
   * restoreMailed puts back when the mail fails to go.
   */
  markMailed(userId: string, savedSearchId: string | null, through: number): Promise<MailedCursors>;
  /** Puts mailed cursors back as markMailed found them (a mail that failed to go). */
  restoreMailed(cursors: MailedCursors): Promise<void>;
  /**
   * The seq of the last event matched against saved searches, held for the caller's unit of work;
   * null when another process holds it. Only meaningful inside a unit of work.
   */
  takeMatchCursor(): Promise<number | null>;
  /** Moves the match cursor forward (within the unit of work that took it). */
  advanceMatchCursor(seq: number): Promise<void>;
}
