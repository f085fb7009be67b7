import { describe, expect, it } from "vitest";
import { CATEGORY_VALUES, type Category } from "../../domain/category.js";
import { QUERY_MAX_WORDS } from "../../domain/full-text.js";
import type { Listing } from "../../domain/listing.js";
import { LISTING_SORTS } from "../../domain/listing-sort.js";
import type { User } from "../../domain/user.js";
import type { ListingSearch } from "../../ports/listing-repository.js";
import type { Repositories } from "../../ports/repositories.js";
import { adversarialTerms, adversarialWords, REPORTED_TERMS, seededRandom } from "../adversarial-terms.js";
import { countListingsByCategory, findListings } from "../memory/listing-find.js";
import { type ContractContext, listingOf, MINUTE, newestFirst, seedListings, seedUser } from "./context.js";
import { countsOf, findAllPages } from "./find-support.js";
import { NOW, substringOracle } from "./listing-catalog.js";

// Two vocabularies that never meet in a listing: a `q` mixing them matches
// nothing though each word is in half the listings. Words whose stems every
// engine agrees on (see listing-oracle.ts).
const GROUPS = [
  ["consulting", "design", "audit", "pentest", "zorb"],
  ["testing", "marketing", "penetration", "quix", "plom"],
];
const CATEGORIES = CATEGORY_VALUES.slice(0, 3) as Category[];

/** Listings whose titles share common trigrams ("ing", "con", "ent", "tion") and whose words keep to one group. */
export function adversarialListings(author: User, count = 60): Listing[] {
  const next = seededRandom(count);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const group = GROUPS[i % 2] as string[];
    const roll = next();
    return listingOf(author, i * MINUTE, {
      title: Array.from({ length: 2 + Math.floor(next() * 4) }, () => pick(group)).join(" "),
      description: `${Array.from({ length: 6 }, () => pick(group)).join(" ")}.`,
      price: roll < 0.2 ? null : Math.floor(next() * 8) * 25,
      category: pick(CATEGORIES),
      status: roll < 0.1 ? "paused" : "active",
      expiresAt: roll > 0.92 ? NOW : null,
    });
  });
}

/** Last-word prefixes of each group, each its own stem in every engine (listing-oracle.ts PREFIXES). */
const PREFIXES = [
  ["consu", "desi", "aud", "zo"],
  ["tes", "mar", "penet"],
];

/**
 * `q` word lists of every length up to QUERY_MAX_WORDS: common words of both
 * groups that never meet, one word repeated, words of one group (they meet
 * often), and the same with the last word a prefix.
 */
export function adversarialWordLists(): string[][] {
  const lists: string[][] = [];
  const cycle = (items: readonly string[], length: number, shift = 0) =>
    Array.from({ length }, (_, i) => items[(i + shift) % items.length] as string);
  for (let length = 1; length <= QUERY_MAX_WORDS; length++) {
    const [first, second] = GROUPS as [string[], string[]];
    lists.push(
      cycle(first, length).map((word, i) => (i % 2 === 0 ? word : (second[i % second.length] as string))),
    );
    lists.push(cycle(["consulting"], length));
    lists.push(cycle(first, length, length));
    for (const [g, group] of GROUPS.entries()) {
      const prefix = PREFIXES[g]?.[length % (PREFIXES[g]?.length ?? 1)] ?? "con";
      lists.push([...cycle(group, length - 1, g), prefix]);
    }
  }
  return lists;
}

/** Every page of a search, following each full page's last id or a short page's resumeBefore. */
async function searchAllPages(
  repos: Repositories,
  query: ListingSearch,
): Promise<{ ids: string[]; short: number }> {
  const found: string[] = [];
  let before = query.before;
  let short = 0;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await repos.listings.search({ ...query, before }, NOW);
    expect(page.length).toBeLessThanOrEqual(query.limit);
    found.push(...page.map((row) => row.id));
    const next = page.length >= query.limit ? page.at(-1)?.id : page.resumeBefore;
    if (page.length < query.limit && page.resumeBefore !== undefined) short++;
    if (next === undefined) return { ids: found, short };
    if (before !== undefined && next >= before) throw new Error(`a page did not move past ${before}`);
    before = next;
  }
  throw new Error("more than 1000 pages");
}

/**
 * Holds `repos` to a brute-force oracle on adversarial terms and word lists:
 * every page is the next slice of the whole answer, and cursors (a full
 * page's last row, or a short page's resume point) go on without a gap or a
 * repeat. Returns how many pages stopped short (for callers whose budget is
 * small enough to engage) and how many terms or word lists matched something.
 */
export async function expectAdversarialSearchAgrees(
  repos: Repositories,
  rows: Listing[],
): Promise<{ short: number; withHits: number }> {
  const next = seededRandom(7);
  let short = 0;
  let withHits = 0;
  const terms = adversarialTerms(
    rows.map((row) => row.title),
    next,
  );
  for (const [i, text] of terms.entries()) {
    const start = i % 5 === 0 ? newestFirst(rows)[Math.floor(rows.length / 3)] : undefined;
    const query: ListingSearch = { status: "active", text, limit: 1 + (i % 4), before: start };
    const expected = substringOracle(rows, text).filter((id) => start === undefined || id < start);
    const found = await searchAllPages(repos, query);
    expect(found.ids, JSON.stringify(query)).toEqual(expected);
    short += found.short;
    if (expected.length > 0) withHits++;
  }
  const words = GROUPS.flat();
  for (const [i, list] of [...adversarialWords(words, next), ...adversarialWordLists()].entries()) {
    const sort = LISTING_SORTS[i % LISTING_SORTS.length] ?? "newest";
    const criteria = { words: list, sort, limit: 1 + (i % 3) } as const;
    const expected = findListings(rows, { status: "active", ...criteria, limit: rows.length + 1 }, NOW);
    const { rows: found } = await findAllPages(repos, criteria, NOW);
    const label = JSON.stringify(criteria);
    expect(
      found.map((row) => row.listing.id),
      label,
    ).toEqual(expected.map((row) => row.listing.id));
    if (expected.length > 0) withHits++;
    const counted = await repos.listings.countByCategory({ status: "active", words: list }, 1000, NOW);
    const whole = countListingsByCategory(rows, { status: "active", words: list }, 1000, NOW);
    // A count stopped at its budget is a lower bound, flagged.
    if (!counted.capped) expect(countsOf(counted.counts), label).toEqual(countsOf(whole.counts));
  }
  return { short, withHits };
}

/** A property test: adversarial search terms and word lists against a brute-force oracle. */
export function adversarialSearchCases(ctx: ContractContext): void {
  describe("search with adversarial terms", () => {
    it("answers every length up to 200 and every hostile word list as the oracle does, page by page", async () => {
      const author = await seedUser(ctx.repos());
      const rows = await seedListings(ctx.repos(), adversarialListings(author));
      const { withHits } = await expectAdversarialSearchAgrees(ctx.repos(), rows);
      // Not only empty answers: prefixes of the walks and same-group word lists match.
      expect(withHits).toBeGreaterThan(15);
      // The reported shapes match nothing here, as in the titles they were found on.
      for (const text of REPORTED_TERMS) {
        const found = await ctx.repos().listings.search({ status: "active", text, limit: 5 }, NOW);
        expect(found.length).toBe(0);
      }
    });
  });
}
