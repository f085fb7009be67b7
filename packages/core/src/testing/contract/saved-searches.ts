import { describe, expect, it } from "vitest";
import type { NewEvent } from "../../domain/event.js";
import type { Listing } from "../../domain/listing.js";
import { MAX_SAVED_SEARCHES_PER_USER, savedSearchMatchKey } from "../../domain/saved-search.js";
import type { Repositories } from "../../ports/repositories.js";
import { type SavedSearchMatch, UNMAILED_SCAN_EVENTS } from "../../ports/saved-search-repository.js";
import { buildSavedSearch, testId } from "../builders.js";
import {
  at,
  type ContractContext,
  ids,
  listingOf,
  MINUTE,
  newestFirst,
  seedListings,
  seedUser,
} from "./context.js";

let serial = 0;

/** The `saved_search.matched` event that tells `userId` of `match`. */
function matchedEvent(userId: string, match: SavedSearchMatch): NewEvent {
  serial++;
  return {
    id: `evt_01JSAVED${String(serial).padStart(18, "0")}`,
    type: "saved_search.matched",
    userId,
    occurredAt: match.matchedAt,
    data: { saved_search_id: match.savedSearchId, listing_id: match.listingId },
  };
}

/** A saved search of a new user's, and a match of another user's listing for it (not recorded). */
async function savedSearchWithAMatch(repos: Repositories) {
  const [owner, author] = [await seedUser(repos), await seedUser(repos)];
  const search = buildSavedSearch({ userId: owner.id });
  await repos.savedSearches.insertWithinLimit(search, 20);
  const [listing] = await seedListings(repos, [listingOf(author, 0)]);
  const match = { savedSearchId: search.id, listingId: listing!.id, matchedAt: at(MINUTE) };
  return { owner, search, match };
}

/** Cases of saved searches: the per-user limit, paging, deletion, candidates and recorded matches. */
export function savedSearchCases(ctx: ContractContext): void {
  describe("saved searches", () => {
    it("stores at most the limit per user, and lists them newest first in pages", async () => {
      const repos = ctx.repos();
      const [owner, other] = [await seedUser(repos), await seedUser(repos)];
      const rows = Array.from({ length: 3 }, (_, i) =>
        buildSavedSearch({ userId: owner.id, createdAt: at(i * MINUTE), q: `word${i}`, category: null }),
      );
      for (const row of rows) expect(await repos.savedSearches.insertWithinLimit(row, 3)).toBe(true);
      const refused = buildSavedSearch({ userId: owner.id, createdAt: at(9 * MINUTE) });
      expect(await repos.savedSearches.insertWithinLimit(refused, 3)).toBe(false);
      expect(await repos.savedSearches.findById(refused.id)).toBeNull();
      expect(await repos.savedSearches.insertWithinLimit(buildSavedSearch({ userId: other.id }), 3)).toBe(
        true,
      );
      const first = await repos.savedSearches.listByUser(owner.id, { limit: 2 });
      expect(ids(first)).toEqual(newestFirst(rows).slice(0, 2));
      const rest = await repos.savedSearches.listByUser(owner.id, { limit: 2, before: first[1]?.id });
      expect(ids(rest)).toEqual(newestFirst(rows).slice(2));
      expect(await repos.savedSearches.findById(rows[0]!.id)).toEqual(rows[0]);
    });

    it("refuses a saved search for an unknown user", async () => {
      const search = buildSavedSearch({ userId: testId(at(1)) });
      await expect(
        ctx.repos().savedSearches.insertWithinLimit(search, MAX_SAVED_SEARCHES_PER_USER),
      ).rejects.toMatchObject({ code: "user_not_found" });
    });

    it("never passes the limit under concurrent inserts for one user", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          repos.savedSearches.insertWithinLimit(buildSavedSearch({ userId: owner.id, createdAt: at(i) }), 5),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(5);
      expect(await repos.savedSearches.listByUser(owner.id, { limit: 100 })).toHaveLength(5);
    });

    it("finds candidates by match key and records each match once", async () => {
      const repos = ctx.repos();
      const [owner, author] = [await seedUser(repos), await seedUser(repos)];
      const byWord = buildSavedSearch({ userId: owner.id, q: "audit report", category: null });
      const byCategory = buildSavedSearch({ userId: owner.id, category: "cybersecurity" });
      for (const row of [byWord, byCategory]) await repos.savedSearches.insertWithinLimit(row, 20);
      const found = await repos.savedSearches.findCandidates([savedSearchMatchKey(byWord), "c:ux-ui-design"]);
      expect(ids(found)).toEqual([byWord.id]);
      expect(await repos.savedSearches.findCandidates([])).toEqual([]);
      const [listing] = await seedListings(repos, [listingOf(author, 0)]);
      const match = { savedSearchId: byWord.id, listingId: listing!.id, matchedAt: at(MINUTE) };
      expect(await repos.savedSearches.recordMatches([match, match])).toEqual([match]);
      expect(await repos.savedSearches.recordMatches([match])).toEqual([]);
      const gone = { ...match, savedSearchId: byCategory.id };
      expect(await repos.savedSearches.delete(byCategory.id)).toBe(true);
      expect(await repos.savedSearches.delete(byCategory.id)).toBe(false);
      expect(await repos.savedSearches.recordMatches([gone])).toEqual([]);
    });

    it("records no match of a deleted listing: its author deleted it before the matcher came", async () => {
      const repos = ctx.repos();
      const [owner, author] = [await seedUser(repos), await seedUser(repos)];
      const search = buildSavedSearch({ userId: owner.id, category: "cybersecurity" });
      await repos.savedSearches.insertWithinLimit(search, 20);
      const [kept, deleted] = await seedListings(repos, [listingOf(author, 0), listingOf(author, MINUTE)]);
      expect(await repos.listings.delete(deleted!.id)).toBe(true);
      const match = (listing: Listing) => ({
        savedSearchId: search.id,
        listingId: listing.id,
        matchedAt: at(MINUTE),
      });
      expect(await repos.savedSearches.recordMatches([match(deleted!), match(kept!)])).toEqual([
        match(kept!),
      ]);
    });

    it("never tells of a deleted saved search's matches, and a deleted user's searches go", async () => {
      const repos = ctx.repos();
      const { owner, search, match } = await savedSearchWithAMatch(repos);
      expect(await repos.savedSearches.recordMatches([match])).toEqual([match]);
      await repos.events.append([matchedEvent(owner.id, match)]);
      expect((await repos.savedSearches.unmailedMatches(owner.id, null, 10)).matches).toEqual([match]);
      await repos.savedSearches.delete(search.id);
      expect((await repos.savedSearches.unmailedMatches(owner.id, null, 10)).matches).toEqual([]);
      expect(await repos.savedSearches.unmailedMatches(owner.id, search.id, 10)).toEqual({
        matches: [],
        through: null,
      });
      await repos.users.deleteCascade(owner.id);
      expect(await repos.savedSearches.findById(search.id)).toBeNull();
      expect(await repos.savedSearches.findCandidates([savedSearchMatchKey(search)])).toEqual([]);
    });

    it("reads unmailed matches from the owner's events after each saved search's mailed cursor", async () => {
      const repos = ctx.repos();
      const [owner, other, author] = [await seedUser(repos), await seedUser(repos), await seedUser(repos)];
      const [first, second] = [
        buildSavedSearch({ userId: owner.id }),
        buildSavedSearch({ userId: owner.id }),
      ];
      const theirs = buildSavedSearch({ userId: other.id });
      for (const row of [first, second, theirs]) await repos.savedSearches.insertWithinLimit(row, 20);
      const listings = await seedListings(repos, [listingOf(author, 0), listingOf(author, 1)]);
      const tell = async (search: typeof first, i: number, ms: number) => {
        const match = { savedSearchId: search.id, listingId: listings[i]!.id, matchedAt: at(ms) };
        await repos.events.append([matchedEvent(search.userId, match)]);
        return match;
      };
      const b = await tell(first, 1, MINUTE);
      const a = await tell(second, 0, 2 * MINUTE);
      // An event of another type is read past.
      await repos.events.append([{ ...matchedEvent(owner.id, a), type: "listing.updated" }]);
      const c = await tell(first, 0, 3 * MINUTE);
      await tell(theirs, 0, MINUTE);
      const unmailed = (id: string | null, limit = 10) =>
        repos.savedSearches.unmailedMatches(owner.id, id, limit);

      expect((await unmailed(null)).matches).toEqual([b, a, c]);
      expect((await unmailed(first.id)).matches).toEqual([b, c]);
      expect((await unmailed(null, 1)).matches).toEqual([b]);
      expect(await unmailed(theirs.id)).toEqual({ matches: [], through: null });
      // Mailed up to `a`: only `c` is left, until a failed mail puts the cursors back.
      const upToA = await unmailed(null, 2);
      expect(upToA.matches).toEqual([b, a]);
      const before = await repos.savedSearches.markMailed(owner.id, null, upToA.through!);
      expect((await unmailed(null)).matches).toEqual([c]);
      await repos.savedSearches.restoreMailed(before);
      expect((await unmailed(null)).matches).toEqual([b, a, c]);
      // One saved search mailed leaves the other's matches.
      const ofFirst = await unmailed(first.id);
      await repos.savedSearches.markMailed(owner.id, first.id, ofFirst.through!);
      expect((await unmailed(null)).matches).toEqual([a]);
      // A cursor never moves back by markMailed.
      await repos.savedSearches.markMailed(owner.id, null, 0);
      expect((await unmailed(null)).matches).toEqual([a]);
      // A saved search saved now starts at the log's end: the matches before it are not its.
      const later = buildSavedSearch({ userId: owner.id });
      await repos.savedSearches.insertWithinLimit(later, 20);
      await repos.events.append([matchedEvent(owner.id, { ...c, savedSearchId: later.id })]);
      expect((await unmailed(later.id)).matches).toEqual([{ ...c, savedSearchId: later.id }]);
    });

    it("looks through a bounded number of the owner's events per read, and goes on from there", async () => {
      const repos = ctx.repos();
      const { owner, match } = await savedSearchWithAMatch(repos);
      const busy = Array.from({ length: UNMAILED_SCAN_EVENTS }, () => ({
        ...matchedEvent(owner.id, match),
        type: "listing.updated" as const,
      }));
      await repos.events.append([...busy, matchedEvent(owner.id, match)]);
      const first = await repos.savedSearches.unmailedMatches(owner.id, null, 10);
      expect(first.matches).toEqual([]);
      expect(first.through).not.toBeNull();
      await repos.savedSearches.markMailed(owner.id, null, first.through!);
      expect((await repos.savedSearches.unmailedMatches(owner.id, null, 10)).matches).toEqual([match]);
    });

    it("keeps the match cursor: moved within a unit of work, taken back when it throws", async () => {
      const repos = ctx.repos();
      const start = await repos.unitOfWork.run((unit) => unit.savedSearches.takeMatchCursor());
      expect(start).toBe(0);
      await repos.unitOfWork.run(async (unit) => {
        await unit.savedSearches.takeMatchCursor();
        await unit.savedSearches.advanceMatchCursor(7);
      });
      await expect(
        repos.unitOfWork.run(async (unit) => {
          await unit.savedSearches.advanceMatchCursor(9);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await repos.unitOfWork.run((unit) => unit.savedSearches.takeMatchCursor())).toBe(7);
    });
  });
}
