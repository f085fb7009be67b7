import type { Deps } from "../../deps.js";
import type { NewEvent } from "../../domain/event.js";
import { isSearchable } from "../../domain/listing.js";
import { type ListingCriteria, prepareListing } from "../../domain/listing-criteria.js";
import {
  listingMatchKeys,
  matchesSavedSearch,
  type SavedSearch,
  savedSearchCriteria,
  savedSearchMatchKey,
} from "../../domain/saved-search.js";
import type { SavedSearchMatch } from "../../ports/saved-search-repository.js";
import { newEvent } from "../../support/events.js";

/** What one matching round did. */
export interface MatchReport {
  /** Listings created or changed that were checked against the saved searches. */
  listings: number;
  /** New `saved_search.matched` events. */
  matched: number;
  /** Whether the log may hold more to match: the next round should not wait for the timer. */
  more: boolean;
}

/** How much one round takes on. */
export interface MatchOptions {
  /**
   * Listing events a round takes on at most (default 500). A round is one unit of work: on SQLite
   * it holds the one write lock throughout (about 1 ms per listing with 50 matches), and its
   * commit writes each page it changed once, so smaller rounds cost more per listing
   * (bench:saved-searches --batch).
   */
  batch?: number;
  /**
   * Events of any type a round looks through at most (default 5,000): most of the log is not
   * listings' (each match writes an event of its own), and storage skips those without reading them.
   */
  window?: number;
}

/** The events that may put a listing in a saved search's answers. */
const LISTING_CHANGES = ["listing.created", "listing.updated"] as const;

/**
 * One matching round, off the request path: reads the listing events after the match cursor (past
 * the others, unread), and for each listing created or changed that is in search now, tells the
 * owner of every saved search it matches (not their own) with a `saved_search.matched` event, once
 * per saved search and listing.
 * A listing that becomes visible again (reactivated, or edited into a search) is matched then; one
 * told of before is not told again. The cursor moves in the same transaction as the events, so a
 * crash loses none and tells none twice; one process matches at a time.
 *
 * The cost follows the listings, not the saved searches: each saved search is indexed under one
 * key (savedSearchMatchKey), the round looks up the keys its listings hold (one query for the
 * whole batch) and checks only those candidates with the search's own predicate.
 */
export async function matchSavedSearches(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  options: MatchOptions = {},
): Promise<MatchReport> {
  return deps.repos.unitOfWork.run(async (repos) => {
    const report: MatchReport = { listings: 0, matched: 0, more: false };
    const cursor = await repos.savedSearches.takeMatchCursor();
    if (cursor === null) return report;
    const scan = await repos.events.scanAfter(cursor, {
      types: LISTING_CHANGES,
      window: options.window ?? 5_000,
      limit: options.batch ?? 500,
    });
    if (scan.through === null) return report;
    report.more = scan.more;
    const ids = new Set<string>();
    for (const event of scan.events) {
      const id = event.data.listing_id;
      if (id) ids.add(id);
    }
    const now = deps.clock.now();
    // One read for the batch, then in the log's order, so that matches are told in it.
    const found = new Map(
      (ids.size === 0 ? [] : await repos.listings.findByIds([...ids])).map((l) => [l.id, l]),
    );
    const listings = [...ids].flatMap((id) => found.get(id) ?? []).filter((row) => isSearchable(row, now));
    report.listings = listings.length;
    const keyed = listings.map((listing) => {
      const prepared = prepareListing(listing);
      return { listing, prepared, keys: listingMatchKeys(listing, prepared) };
    });
    const byKey = await candidatesByKey(repos, keyed);
    const matches: (SavedSearchMatch & { userId: string })[] = [];
    for (const { listing, prepared, keys } of keyed) {
      for (const key of keys) {
        for (const { search, criteria } of byKey.get(key) ?? []) {
          if (!matchesSavedSearch(listing, search, now, { listing: prepared, criteria })) continue;
          matches.push({
            savedSearchId: search.id,
            listingId: listing.id,
            matchedAt: now,
            userId: search.userId,
          });
        }
      }
    }
    const owners = new Map(matches.map((match) => [match.savedSearchId, match.userId]));
    const recorded = matches.length === 0 ? [] : await repos.savedSearches.recordMatches(matches);
    const told: NewEvent[] = recorded.map((match) =>
      newEvent(deps, "saved_search.matched", owners.get(match.savedSearchId) ?? "", {
        saved_search_id: match.savedSearchId,
        listing_id: match.listingId,
      }),
    );
    if (told.length > 0) await repos.events.append(told);
    report.matched = told.length;
    await repos.savedSearches.advanceMatchCursor(scan.through);
    return report;
  });
}

/** A saved search that may match, with its criteria. */
interface Candidate {
  search: SavedSearch;
  criteria: ListingCriteria;
}

/** The saved searches any of the listings may match, by their match key: one lookup for the batch. */
async function candidatesByKey(
  repos: Deps["repos"],
  keyed: readonly { keys: ReadonlySet<string> }[],
): Promise<Map<string, Candidate[]>> {
  const keys = new Set<string>();
  for (const row of keyed) for (const key of row.keys) keys.add(key);
  const byKey = new Map<string, Candidate[]>();
  if (keys.size === 0) return byKey;
  for (const search of await repos.savedSearches.findCandidates([...keys])) {
    // Its criteria worked out once, however many listings it is checked against.
    const candidate = { search, criteria: savedSearchCriteria(search) };
    const key = savedSearchMatchKey(search, candidate.criteria);
    const list = byKey.get(key);
    if (list) list.push(candidate);
    else byKey.set(key, [candidate]);
  }
  return byKey;
}
