import type { Listing, ListingFind, ListingFindResult } from "@psm/core";
import { and, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { listings } from "../schema.js";
import { filters, inTitle, matches, type Part, partsOf, pinnedFilters } from "./listing-find-sql.js";
import { listingColumns, listingSelect, toListing } from "./listing-sql.js";

/** Entries a slice walks when a find or a facet count reached its time budget. */
export const FIND_SLICE = 5_000;

/** Entries of its index a part with words walks before it reads its matches from a GIN index instead. */
export const FIND_PROBE = 500;

interface KeyRow extends Record<string, unknown> {
  id: string;
  price: number | null;
}

/** A found listing's key (its sort key within its part) and, when its statement read it, the listing. */
interface Found {
  id: string;
  rank: number;
  listing?: Listing;
}

/** The listings of `keys`, in their order, with their ranks: those not read yet in one more statement. */
async function withListings(db: Db, keys: Found[]): Promise<ListingFindResult> {
  if (keys.length === 0) return [];
  if (keys.every((key) => key.listing !== undefined)) {
    return keys.map((key) => ({ listing: key.listing as Listing, rank: key.rank }));
  }
  const rows = await db
    .select(listingColumns)
    .from(listings)
    .where(
      inArray(
        listings.id,
        keys.map((key) => key.id),
      ),
    );
  const byId = new Map<string, Listing>(rows.map((row) => [row.id, row]));
  const found: ListingFindResult = [];
  for (const key of keys) {
    const listing = byId.get(key.id);
    if (listing) found.push({ listing, rank: key.rank });
  }
  return found;
}

/** The parts still to read after `after`, each with its own cursor condition (if the cursor lies in it). */
function remaining(query: ListingFind): { part: Part; from: SQL | undefined }[] {
  const after = query.after;
  return partsOf(query)
    .filter((part) => after === undefined || !part.passed(after))
    .map((part) => ({
      part,
      from: after !== undefined && part.holds(after) ? part.after(after) : undefined,
    }));
}

/**
 * A find, exactly: each part of the sort in turn. A part with words first
 * probes the next FIND_PROBE entries of its index, checking each against the
 * stored `search_vector` alone (a walk never computes a title's words); only
 * a part the probe did not fill reads its other matches from a GIN index and
 * sorts them. The planner chose between the two before, from estimates that
 * sent absent and rare words to a walk of the whole table (DESIGN.md
 * "Full-text search"). Run under the search budget (search-budget.ts).
 */
export async function findExactly(
  db: Db,
  query: ListingFind,
  now: Date,
  probe = FIND_PROBE,
): Promise<ListingFindResult> {
  const keys: Found[] = [];
  const where = filters(query, now);
  const parts = remaining(query);
  const words = query.words ?? [];
  // A first page by relevance: both ranks' probes walk the same entries, so one walk serves both.
  const ranks =
    query.sort === "relevance" && words.length > 0 && query.after === undefined && parts.length === 2
      ? await probeRanks(db, query, where, words, probe)
      : undefined;
  for (const { part, from } of parts) {
    const want = query.limit - keys.length;
    if (want <= 0) break;
    const takeListings = (rows: Record<string, unknown>[]) =>
      keys.push(...rows.map((row) => ({ id: row.id as string, rank: part.rank, listing: toListing(row) })));
    if (part.match === undefined || part.probe === undefined) {
      takeListings(
        await db.execute(sql`select ${listingSelect("listings")} from "listings"
          where ${and(...where, part.range, from) ?? sql`true`} order by ${part.order} limit ${want}`),
      );
      continue;
    }
    // The probe's rows are whole listings already: they are answered from it, not read again.
    const probed =
      ranks?.[part.rank]?.slice(0, want) ??
      (await db.execute<KeyRow>(sql`select ${listingSelect("listings")}
      from (select "listings".* from "listings" where ${and(...walkRange(query), part.range, from) ?? sql`true`}
        order by ${walkOrder(query, part)} limit ${probe}) as "listings"
      where ${and(...where, part.probe)} order by ${part.order} limit ${want}`));
    takeListings(probed);
    if (probed.length >= want) continue;
    // The probe's matches are the part's first: the others lie past the last of them. Materialized,
    // so the planner reads them from the GIN index rather than walking the part's index again.
    const last = probed.at(-1);
    const past = last === undefined ? from : part.after({ rank: part.rank, price: last.price, id: last.id });
    // The page's few keys then join their listings, by primary key, in the same statement.
    takeListings(
      await db.execute(sql`with m as materialized (select "listings"."id", "listings"."price"
          from "listings" where ${and(...where, part.range, part.match, past)})
        select ${listingSelect("l")} from (select "listings"."id", "listings"."price" from m as "listings"
          order by ${part.order} limit ${want - probed.length}) as "listings"
        join "listings" as "l" on "l"."id" = "listings"."id" order by ${part.order}`),
    );
  }
  return withListings(db, keys);
}

/**
 * The probes of both relevance ranks from the newest entry, in one walk of `probe` entries: each
 * match is rank 0 when the title holds every word (`inTitle`, which implies `matches`), else rank
 * 1; at most `query.limit` of each, newest first, as each rank's own probe answers. Two walks of
 * the same entries cost PostgreSQL twice the row reads (~1 ms each at 20,000 listings).
 */
async function probeRanks(
  db: Db,
  query: ListingFind,
  where: SQL[],
  words: readonly string[],
  probe: number,
): Promise<[KeyRow[], KeyRow[]]> {
  const rows = await db.execute<KeyRow & { psm_rank: boolean; psm_n: unknown }>(sql`select * from (
      select ${listingSelect("listings")}, "listings"."psm_rank",
        row_number() over (partition by "listings"."psm_rank" order by "listings"."id" desc) as "psm_n"
      from (select "listings".*, not (${inTitle(words)}) as "psm_rank"
        from (select "listings".* from "listings" where ${and(...walkRange(query)) ?? sql`true`}
          order by ${walkOrder(query, undefined)} limit ${probe}) as "listings"
        where ${and(...where, matches(words))}) as "listings") as "ranked"
    where "psm_n" <= ${query.limit} order by "psm_rank", "id" desc`);
  const ranks: [KeyRow[], KeyRow[]] = [[], []];
  for (const { psm_rank, psm_n: _, ...row } of rows) ranks[psm_rank ? 1 : 0].push(row);
  return ranks;
}

/**
 * The conditions of a part's walk that an index answers: status, category and author (as ranges,
 * listing-search-shape.ts `pinned`) and, for price sorts, the price bounds.
 */
function walkRange(query: ListingFind): SQL[] {
  const bounds = query.sort === "newest" || query.sort === "relevance" ? [] : priceBounds(query);
  return [...pinnedFilters(query, "ranges"), ...bounds];
}

/**
 * The order of a part's walk, led by the pinned author or category: the index keyed by them then
 * delivers it. Pinned by `=`, PostgreSQL drops them from the order and walks every listing newest
 * first, filtering: after 15,000 creates in one category, each probe of another category read them
 * all (bench:http, 2026-11-29: 22 searches in 662 failed).
 */
function walkOrder(query: ListingFind, part: Part | undefined): SQL {
  // Without a part: newest first, the order of both relevance ranks.
  const order = part?.order ?? sql`"listings"."id" desc`;
  if (query.userId !== undefined) return sql`"listings"."user_id", ${order}`;
  if (query.category !== undefined && query.status !== "all") {
    return sql`"listings"."category", "listings"."status", ${order}`;
  }
  return order;
}

/**
 * The answer of a find that reached its budget, bounded by construction: the
 * matches among the next FIND_SLICE entries of the sort's indexes from the
 * cursor on (a part that ends within the walk hands what is left of it to the
 * next part), and the last entry examined, where the next page goes on.
 */
export async function findSlice(
  db: Db,
  query: ListingFind,
  now: Date,
  slice = FIND_SLICE,
): Promise<ListingFindResult> {
  const parts = remaining(query);
  const keys: Found[] = [];
  let left = slice;
  for (const { part, from } of parts) {
    // The index ranges go in WHERE (with the price bounds, a range of the price
    // index); the rest, full text included, is each entry's `hit`, so LIMIT
    // counts every entry examined.
    const hit = and(...filters(query, now), part.probe) ?? sql`true`;
    const rows = await db.execute<KeyRow & { hit: boolean }>(sql`select "listings"."id" as id,
        "listings"."price" as price, (${hit}) as hit from "listings"
      where ${and(...walkRange(query), part.range, from) ?? sql`true`}
      order by ${walkOrder(query, part)} limit ${left}`);
    for (const row of rows) {
      if (row.hit && keys.push({ id: row.id, rank: part.rank }) >= query.limit) return withListings(db, keys);
    }
    const last = rows.at(-1);
    if (rows.length >= left && last) {
      const found = await withListings(db, keys);
      found.resumeAfter = { rank: part.rank, price: last.price, id: last.id };
      return found;
    }
    left -= rows.length;
  }
  return withListings(db, keys);
}

/** The price bounds alone, as conditions. */
function priceBounds(query: ListingFind): SQL[] {
  return filters({ status: "all", minPrice: query.minPrice, maxPrice: query.maxPrice }, new Date(0));
}
