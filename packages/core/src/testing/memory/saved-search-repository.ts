import type { PageQuery } from "../../domain/page.js";
import { type SavedSearch, savedSearchMatchKey } from "../../domain/saved-search.js";
import type { SavedSearchMatch, SavedSearchRepository } from "../../ports/saved-search-repository.js";
import { copy, copyOrNull, insertNew, type MemoryState, pageById, requireUser } from "./state.js";

const CURSOR = "cursor";

/** Ties of matchedAt in a stable order: saved search, then listing. */
function order(a: SavedSearchMatch, b: SavedSearchMatch): number {
  const x = `${a.savedSearchId}/${a.listingId}`;
  const y = `${b.savedSearchId}/${b.listingId}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The in-memory SavedSearchRepository (candidates by a scan: the reference, not the fast path). */
export function createMemorySavedSearchRepository(state: MemoryState): SavedSearchRepository {
  const { savedSearches, savedSearchMatches } = state;
  return {
    async insertWithinLimit(search: SavedSearch, max: number) {
      requireUser(state, search.userId);
      const held = [...savedSearches.values()].filter((row) => row.userId === search.userId).length;
      if (held >= max) return false;
      insertNew(savedSearches, search.id, copy(search));
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
    async delete(id: string) {
      if (!savedSearches.delete(id)) return false;
      for (const [key, row] of savedSearchMatches)
        if (row.savedSearchId === id) savedSearchMatches.delete(key);
      return true;
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
        const row = {
          savedSearchId: match.savedSearchId,
          listingId: match.listingId,
          matchedAt: match.matchedAt,
        };
        savedSearchMatches.set(key, { ...copy(row), mailedAt: null });
        recorded.push(row);
      }
      return recorded;
    },
    async unmailedMatches(userId: string, savedSearchId: string | null, limit: number) {
      const owned = (id: string) => savedSearches.get(id)?.userId === userId;
      return [...savedSearchMatches.values()]
        .filter((row) => row.mailedAt === null && owned(row.savedSearchId))
        .filter((row) => savedSearchId === null || row.savedSearchId === savedSearchId)
        .sort((a, b) => a.matchedAt.getTime() - b.matchedAt.getTime() || order(a, b))
        .slice(0, Math.max(0, limit))
        .map(({ mailedAt: _, ...match }) => copy(match));
    },
    async markMailed(matches: readonly SavedSearchMatch[], at: Date | null) {
      for (const match of matches) {
        const row = savedSearchMatches.get(`${match.savedSearchId}/${match.listingId}`);
        if (row) row.mailedAt = at && new Date(at.getTime());
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
