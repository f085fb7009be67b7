import type { NewEvent } from "../../domain/event.js";
import { applyChanges, effectiveStatus, isSearchable, type Listing } from "../../domain/listing.js";
import type { PageQuery } from "../../domain/page.js";
import { foldSearchText } from "../../domain/search-text.js";
import type { ListingRepository, ListingSearch, SlotGuard } from "../../ports/listing-repository.js";
import { appendEvents } from "./event-repository.js";
import { countListingsByCategory, findListings } from "./listing-find.js";
import { copy, copyOrNull, insertNew, type MemoryState, pageById, requireUser } from "./state.js";

function matches(listing: Listing, query: ListingSearch, now: Date): boolean {
  if (query.status !== "all" && effectiveStatus(listing, now) !== query.status) return false;
  if (query.category !== undefined && listing.category !== query.category) return false;
  if (query.userId !== undefined && listing.userId !== query.userId) return false;
  // A plain substring test: `%`, `_` and `\` are ordinary characters here.
  if (query.text !== undefined && !foldSearchText(listing.title).includes(foldSearchText(query.text)))
    return false;
  return true;
}

/** The in-memory ListingRepository over shared tables. */
export function createMemoryListingRepository(state: MemoryState): ListingRepository {
  const { listings } = state;

  // Synchronous on purpose: callers run it and then write with no await in
  // between, which is what makes the slot checks atomic on one JS thread.
  function countActive(userId: string, now: Date): number {
    let count = 0;
    for (const listing of listings.values()) {
      if (listing.userId === userId && isSearchable(listing, now)) count++;
    }
    return count;
  }

  return {
    async findById(id: string) {
      return copyOrNull(listings.get(id));
    },
    async findByIds(ids: readonly string[]) {
      return [...new Set(ids)].flatMap((id) => copyOrNull(listings.get(id)) ?? []);
    },
    async search(query: ListingSearch, now: Date) {
      return pageById(
        [...listings.values()].filter((listing) => matches(listing, query, now)),
        query,
      );
    },
    async find(query, now) {
      return findListings(listings.values(), query, now);
    },
    async countByCategory(query, cap, now) {
      return countListingsByCategory(listings.values(), query, cap, now);
    },
    async listAll(page: PageQuery) {
      return pageById(listings.values(), page);
    },
    async insertWithinSlots(listing: Listing, guard: SlotGuard, events?: readonly NewEvent[]) {
      if (countActive(listing.userId, guard.now) >= guard.maxSlots) return false;
      requireUser(state, listing.userId);
      insertNew(listings, listing.id, copy(listing));
      appendEvents(state, events);
      return true;
    },
    async update(id, changes, guard, events) {
      const current = listings.get(id);
      if (!current) return null;
      const next = applyChanges(current, copy(changes));
      if (!isSearchable(current, guard.now) && isSearchable(next, guard.now)) {
        // `current` is not searchable, so it is not part of this count.
        if (countActive(current.userId, guard.now) >= guard.maxSlots) return "limit_reached";
      }
      listings.set(id, next);
      appendEvents(state, events);
      return copy(next);
    },
    async delete(id: string, events?: readonly NewEvent[]) {
      if (!listings.delete(id)) return false;
      // Its saved-search matches go with it, as the SQL storages' trigger takes them.
      for (const [key, row] of state.savedSearchMatches)
        if (row.listingId === id) state.savedSearchMatches.delete(key);
      appendEvents(state, events);
      return true;
    },
    async incrementViews(id: string) {
      const listing = listings.get(id);
      if (!listing) return false;
      listing.views += 1;
      return true;
    },
    async countActiveByUser(userId: string, now: Date) {
      return countActive(userId, now);
    },
    async countActiveByUsers(userIds: readonly string[], now: Date) {
      const wanted = new Set(userIds);
      const counts = new Map<string, number>();
      for (const listing of listings.values()) {
        if (wanted.has(listing.userId) && isSearchable(listing, now)) {
          counts.set(listing.userId, (counts.get(listing.userId) ?? 0) + 1);
        }
      }
      return counts;
    },
  };
}
