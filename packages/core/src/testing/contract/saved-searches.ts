import { describe, expect, it } from "vitest";
import { MAX_SAVED_SEARCHES_PER_USER, savedSearchMatchKey } from "../../domain/saved-search.js";
import { buildSavedSearch, testId } from "../builders.js";
import {
  at,
  type ContractContext,
  HOUR,
  ids,
  listingOf,
  MINUTE,
  newestFirst,
  seedListings,
  seedUser,
} from "./context.js";

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

    it("forgets a deleted saved search's matches, and a deleted user's searches", async () => {
      const repos = ctx.repos();
      const [owner, author] = [await seedUser(repos), await seedUser(repos)];
      const search = buildSavedSearch({ userId: owner.id });
      await repos.savedSearches.insertWithinLimit(search, 20);
      const [listing] = await seedListings(repos, [listingOf(author, 0)]);
      const match = { savedSearchId: search.id, listingId: listing!.id, matchedAt: at(MINUTE) };
      await repos.savedSearches.recordMatches([match]);
      await repos.savedSearches.delete(search.id);
      // Saved again under the same id, it has no match recorded.
      await repos.savedSearches.insertWithinLimit(search, 20);
      expect(await repos.savedSearches.recordMatches([match])).toEqual([match]);
      await repos.users.deleteCascade(owner.id);
      expect(await repos.savedSearches.findById(search.id)).toBeNull();
      expect(await repos.savedSearches.findCandidates([savedSearchMatchKey(search)])).toEqual([]);
    });

    it("answers the unmailed matches of one saved search or all of a user's, oldest first, until mailed", async () => {
      const repos = ctx.repos();
      const [owner, other, author] = [await seedUser(repos), await seedUser(repos), await seedUser(repos)];
      const [first, second] = [
        buildSavedSearch({ userId: owner.id }),
        buildSavedSearch({ userId: owner.id }),
      ];
      const theirs = buildSavedSearch({ userId: other.id });
      for (const row of [first, second, theirs]) await repos.savedSearches.insertWithinLimit(row, 20);
      const listings = await seedListings(repos, [listingOf(author, 0), listingOf(author, 1)]);
      const match = (search: typeof first, i: number, ms: number) => ({
        savedSearchId: search.id,
        listingId: listings[i]!.id,
        matchedAt: at(ms),
      });
      const [a, b, c] = [match(second, 0, 2 * MINUTE), match(first, 1, MINUTE), match(first, 0, 3 * MINUTE)];
      await repos.savedSearches.recordMatches([a, b, c, match(theirs, 0, MINUTE)]);
      expect(await repos.savedSearches.unmailedMatches(owner.id, null, 10)).toEqual([b, a, c]);
      expect(await repos.savedSearches.unmailedMatches(owner.id, first.id, 10)).toEqual([b, c]);
      expect(await repos.savedSearches.unmailedMatches(owner.id, null, 1)).toEqual([b]);
      expect(await repos.savedSearches.unmailedMatches(owner.id, theirs.id, 10)).toEqual([]);
      await repos.savedSearches.markMailed([b, a], at(HOUR));
      expect(await repos.savedSearches.unmailedMatches(owner.id, null, 10)).toEqual([c]);
      await repos.savedSearches.markMailed([b], null);
      expect(await repos.savedSearches.unmailedMatches(owner.id, null, 10)).toEqual([b, c]);
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
