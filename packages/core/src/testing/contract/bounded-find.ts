import { expect } from "vitest";
import type { Listing } from "../../domain/listing.js";
import type { ListingFind, ListingFindResult } from "../../ports/listing-repository.js";
import type { Repositories } from "../../ports/repositories.js";
import { findListings } from "../memory/listing-find.js";
import { listingOf, MINUTE, seedListings, seedUser } from "./context.js";
import { type FindCriteria, findAllPages } from "./find-support.js";
import { NOW } from "./listing-catalog.js";

/** A find that may stop short to bound its work (ListingFindResult.resumeAfter). */
export type BoundedFind = (query: ListingFind, now: Date) => Promise<ListingFindResult>;

/** Sparse matches: "audit" in every fifth description, a title match in every tenth, prices with gaps. */
export async function seedSparse(repos: Repositories, count = 40): Promise<Listing[]> {
  const author = await seedUser(repos);
  const rows = Array.from({ length: count }, (_, i) =>
    listingOf(author, i * MINUTE, {
      title: i % 10 === 0 ? `Audit ${i}` : `Listing ${i}`,
      description: i % 5 === 0 ? "An audit of your books." : "Something else entirely.",
      price: i % 3 === 0 ? null : (i % 7) * 10,
      category: i % 2 === 0 ? "cybersecurity" : "data-analytics",
      // Every field a found listing carries, filled on some rows: each is compared as stored.
      ...(i % 4 === 1
        ? {
            priceUnit: "hour" as const,
            images: [`https://img.example.com/${i}.png`],
            structuredData: { hours: i, tags: ["audit"] },
            contactEmail: `seller${i}@example.com`,
            // Far ahead of any clock: the servers that seed these rows search them at the real time.
            expiresAt: new Date(Date.UTC(2100, 0, 1 + i)),
          }
        : {}),
    }),
  );
  return seedListings(repos, rows);
}

const QUERIES: FindCriteria[] = [
  { words: ["audit"], sort: "newest", limit: 3 },
  { words: ["audit"], sort: "relevance", limit: 2 },
  { words: ["audit"], sort: "price_asc", limit: 2 },
  { words: ["audit"], sort: "price_desc", limit: 3, maxPrice: 50 },
  { sort: "price_asc", limit: 4, minPrice: 30 },
  { sort: "newest", limit: 2, minPrice: 60 },
  { sort: "price_desc", limit: 5, category: "data-analytics" },
  { words: ["audit"], sort: "relevance", limit: 2, category: "cybersecurity" },
];

/**
 * Holds a bounded find to its contract on `rows`: paged to the end through
 * its cursors and resume points, every query gives exactly what the
 * in-memory reference gives, and the bound did engage (some page stopped
 * short) unless `stopsShort` is false: a find whose bound changes how it
 * reads, not what it answers.
 */
export async function expectBoundedFindAgrees(
  find: BoundedFind,
  rows: Listing[],
  stopsShort = true,
): Promise<void> {
  let stoppedShort = 0;
  const counting: BoundedFind = async (query, now) => {
    const page = await find(query, now);
    if (page.resumeAfter !== undefined) stoppedShort++;
    return page;
  };
  const repos = { listings: { find: counting } } as unknown as Repositories;
  // The same through an author's listings, which storages read by another index.
  const userId = rows[0]?.userId;
  const byAuthor: FindCriteria[] = [
    { userId, sort: "price_asc", limit: 3 },
    { userId, sort: "newest", minPrice: 20, limit: 2 },
    { userId, words: ["audit"], sort: "price_desc", limit: 2 },
  ];
  for (const criteria of [...QUERIES, ...byAuthor]) {
    const query: ListingFind = { status: "active", sort: "newest", limit: 100, ...criteria };
    const expected = findListings(rows, { ...query, limit: rows.length + 1 }, NOW).map((row) => row.listing);
    const { rows: found } = await findAllPages(repos, criteria, NOW);
    // Whole listings, as stored: a storage that answers a page from its find's own rows maps them too.
    expect(
      found.map((row) => row.listing),
      JSON.stringify(criteria),
    ).toEqual(expected);
  }
  if (stopsShort) expect(stoppedShort).toBeGreaterThan(0);
  else expect(stoppedShort).toBe(0);
}
