import { describe, expect, it } from "vitest";
import { CATEGORY_VALUES, type Category } from "../../domain/category.js";
import { searchWords } from "../../domain/full-text.js";
import type { Listing } from "../../domain/listing.js";
import { compareSortKeys, LISTING_SORTS, sortKeyOf } from "../../domain/listing-sort.js";
import type { User } from "../../domain/user.js";
import { seededRandom } from "../adversarial-terms.js";
import type { ContractContext } from "./context.js";
import { listingOf, MINUTE, seedListings, seedUser } from "./context.js";
import { countsOf, type FindCriteria, findAllPages } from "./find-support.js";
import { NOW } from "./listing-catalog.js";

// Words with the stem every engine gives them (checked by hand in FTS5,
// PostgreSQL and core's porterStem): the oracle below knows nothing else.
const STEMS: Record<string, string> = {
  consult: "consult",
  consults: "consult",
  consulting: "consult",
  consultant: "consult",
  design: "design",
  designs: "design",
  designer: "design",
  designing: "design",
  test: "test",
  testing: "test",
  tested: "test",
  audit: "audit",
  audits: "audit",
  audited: "audit",
  market: "market",
  marketing: "market",
  café: "cafe",
  cafe: "cafe",
  penetration: "penetr",
  pentest: "pentest",
  zorb: "zorb",
  quix: "quix",
  plom: "plom",
};
export const WORDS = Object.keys(STEMS);
/** Last-word prefixes, each its own stem in every engine. */
export const PREFIXES = ["con", "consu", "desi", "tes", "aud", "mar", "pen", "penet", "caf", "zo"];

export const pick = <T>(next: () => number, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)] as T;
export const some = (next: () => number, min: number, max: number) =>
  Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => pick(next, WORDS));
export const CATEGORIES = CATEGORY_VALUES.slice(0, 3) as Category[];

export function randomListing(next: () => number, author: User, i: number): Listing {
  const roll = next();
  const capitalised = (word: string) => (next() < 0.3 ? word.toUpperCase() : word);
  return listingOf(author, i * MINUTE, {
    title: some(next, 1, 3).map(capitalised).join(" "),
    description: `${some(next, 0, 5).join(", ")}.`,
    price: next() < 0.25 ? null : Math.floor(next() * 8) * 25,
    category: pick(next, CATEGORIES),
    status: roll < 0.1 ? "paused" : "active",
    expiresAt: roll > 0.9 ? NOW : null,
  });
}

// The oracle: whole words by the table, the last word also as a prefix of a stem.
function stemsIn(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter((word) => word !== "")
      .map((word) => STEMS[word] ?? word),
  );
}
function holds(stems: Set<string>, words: string[]): boolean {
  return words.every((word, i) => {
    const stem = STEMS[word] ?? word;
    return i === words.length - 1 ? [...stems].some((s) => s.startsWith(stem)) : stems.has(stem);
  });
}
function oracleRank(listing: Listing, words: string[]): number | null {
  if (words.length === 0) return 0;
  if (holds(stemsIn(listing.title), words)) return 0;
  return holds(stemsIn(`${listing.title} ${listing.description}`), words) ? 1 : null;
}

function randomCriteria(next: () => number, author: User): FindCriteria {
  const words = next() < 0.85 ? some(next, 1, 2) : [];
  if (words.length > 0 && next() < 0.3) words[words.length - 1] = pick(next, PREFIXES);
  const criteria: FindCriteria = { sort: pick(next, LISTING_SORTS), limit: 1 + Math.floor(next() * 6) };
  // As core hands them to storage (searchWords): café arrives as cafe.
  if (words.length > 0) criteria.words = words.flatMap(searchWords);
  else if (criteria.sort === "relevance") criteria.sort = "newest";
  if (next() < 0.3) criteria.minPrice = Math.floor(next() * 5) * 25;
  if (next() < 0.3) criteria.maxPrice = (criteria.minPrice ?? 0) + Math.floor(next() * 5) * 25;
  if (next() < 0.15) criteria.category = pick(next, CATEGORIES);
  // Every listing is the author's: the same answers, read by another index.
  if (next() < 0.2) criteria.userId = author.id;
  return criteria;
}

function oracle(rows: Listing[], criteria: FindCriteria): { ids: string[]; counts: Record<string, number> } {
  const found: { listing: Listing; rank: number }[] = [];
  const counts: Record<string, number> = {};
  for (const listing of rows) {
    if (listing.status !== "active" || listing.expiresAt !== null) continue;
    const { minPrice, maxPrice } = criteria;
    if ((minPrice !== undefined || maxPrice !== undefined) && listing.price === null) continue;
    if (minPrice !== undefined && (listing.price ?? 0) < minPrice) continue;
    if (maxPrice !== undefined && (listing.price ?? 0) > maxPrice) continue;
    const rank = oracleRank(listing, [...(criteria.words ?? [])]);
    if (rank === null) continue;
    counts[listing.category] = (counts[listing.category] ?? 0) + 1;
    if (criteria.category !== undefined && listing.category !== criteria.category) continue;
    found.push({ listing, rank });
  }
  const sort = criteria.sort ?? "newest";
  found.sort((a, b) => compareSortKeys(sort, sortKeyOf(a.listing, a.rank), sortKeyOf(b.listing, b.rank)));
  return { ids: found.map((row) => row.listing.id), counts: countsOf(counts) };
}

/** A property test: find and countByCategory agree with a plain oracle on random data and queries. */
export function listingOracleCases(ctx: ContractContext): void {
  describe("listings.find against an oracle", () => {
    for (const seed of [1, 2]) {
      it(`agrees on random listings and queries (seed ${seed})`, async () => {
        const next = seededRandom(seed);
        const author = await seedUser(ctx.repos());
        const rows = Array.from({ length: 60 }, (_, i) => randomListing(next, author, i));
        await seedListings(ctx.repos(), rows);
        for (let trial = 0; trial < 40; trial++) {
          const criteria = randomCriteria(next, author);
          const label = `seed ${seed}, trial ${trial}: ${JSON.stringify(criteria)}`;
          const expected = oracle(rows, criteria);
          const { rows: found } = await findAllPages(ctx.repos(), criteria, NOW);
          expect(
            found.map((row) => row.listing.id),
            label,
          ).toEqual(expected.ids);
          const { category: _, sort: __, limit: ___, ...facets } = criteria;
          const counted = await ctx
            .repos()
            .listings.countByCategory({ status: "active", ...facets }, 1000, NOW);
          expect(countsOf(counted.counts), label).toEqual(expected.counts);
        }
      });
    }
  });
}
