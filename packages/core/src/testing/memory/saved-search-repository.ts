import type { PageQuery } from "../../domain/page.js";
import { type SavedSearch, savedSearchMatchKey } from "../../domain/saved-search.js";
import {
  type MailedCursors,
  type SavedSearchMatch,
  type SavedSearchRepository,
  UNMAILED_SCAN_EVENTS,
} from "../../ports/saved-search-repository.js";
import { lastEventSeq } from "./event-repository.js";
import { copy, copyOrNull, insertNew, type MemoryState, pageById, requireUser } from "./state.js";

const CURSOR = "cursor";

/** The in-memory SavedSearchRepository (candidates by a scan: the reference, not the fast path). */
export function createMemorySavedSearchRepository(state: MemoryState): SavedSearchRepository {
  const { savedSearches, savedSearchMatches, savedSearchMailed } = state;
  /** The user's saved search (or all of theirs) and their mailed cursors. */
  const cursorsOf = (userId: string, savedSearchId: string | null) =>
    new Map(
      [...savedSearches.values()]
        .filter((row) => row.userId === userId && (savedSearchId === null || row.id === savedSearchId))
        .map((row) => [row.id, savedSearchMailed.get(row.id) ?? 0]),
    );
  return {
    async insertWithinLimit(search: SavedSearch, max: number) {
      requireUser(state, search.userId);
      const held = [...savedSearches.values()].filter((row) => row.userId === search.userId).length;
      if (held >= max) return false;
      insertNew(savedSearches, search.id, copy(search));
      savedSearchMailed.set(search.id, lastEventSeq(state));
      return true;
    },
    async findById(id: string) {
      return copyOrNull(savedSearches.get(id));
    },
    async listByUser(userId: string, page: PageQuery) {
      return pageById(
        [...savedSearches.values()].filter((row) => row.userId === userId),
        page,
      );
    },
    // Its matches stay, as the SQL storages' do (they are keyed by listing there).
    async delete(id: string) {
      savedSearchMailed.delete(id);
      return savedSearches.delete(id);
    },
    async findCandidates(keys: readonly string[]) {
      const wanted = new Set(keys);
      return [...savedSearches.values()].filter((row) => wanted.has(savedSearchMatchKey(row))).map(copy);
    },
    async recordMatches(matches: readonly SavedSearchMatch[]) {
      const recorded: SavedSearchMatch[] = [];
      for (const match of matches) {
        const key = `${match.savedSearchId}/${match.listingId}`;
        if (!savedSearches.has(match.savedSearchId) || savedSearchMatches.has(key)) continue;
        if (!state.listings.has(match.listingId)) continue;
        const row = {
          savedSearchId: match.savedSearchId,
          listingId: match.listingId,
          matchedAt: match.matchedAt,
        };
        savedSearchMatches.set(key, copy(row));
        recorded.push(row);
      }
      return recorded;
    },
    async unmailedMatches(userId: string, savedSearchId: string | null, limit: number) {
      const cursors = cursorsOf(userId, savedSearchId);
      if (cursors.size === 0 || limit <= 0) return { matches: [], through: null };
      const from = Math.min(...cursors.values());
      const read = [...state.events.values()]
        .filter((event) => event.userId === userId && event.seq > from)
        .sort((a, b) => a.seq - b.seq)
        .slice(0, UNMAILED_SCAN_EVENTS);
      const matches: SavedSearchMatch[] = [];
      for (const event of read) {
        const { saved_search_id: id, listing_id: listingId } = event.data;
        const cursor = id === undefined ? undefined : cursors.get(id);
        if (event.type !== "saved_search.matched" || cursor === undefined || event.seq <= cursor) continue;
        matches.push({
          savedSearchId: id as string,
          listingId: listingId ?? "",
          matchedAt: new Date(event.occurredAt),
        });
        if (matches.length >= limit) return { matches, through: event.seq };
      }
      return { matches, through: read.at(-1)?.seq ?? null };
    },
    async markMailed(userId: string, savedSearchId: string | null, through: number) {
      const before: Record<string, number> = {};
      for (const [id, cursor] of cursorsOf(userId, savedSearchId)) {
        before[id] = cursor;
        savedSearchMailed.set(id, Math.max(cursor, through));
      }
      return before;
    },
    async restoreMailed(cursors: MailedCursors) {
      for (const [id, cursor] of Object.entries(cursors)) {
        if (savedSearches.has(id)) savedSearchMailed.set(id, cursor);
      }
    },
    async takeMatchCursor() {
      return state.matchCursor.get(CURSOR) ?? 0;
    },
    async advanceMatchCursor(seq: number) {
      state.matchCursor.set(CURSOR, seq);
    },
  };
}
