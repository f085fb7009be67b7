import {
  type Category,
  foldSearchText,
  isUuid,
  type Listing,
  type ListingSearch,
  type ListingSearchResult,
} from "@psm/core";
import { and, desc, lt, type Placeholder, type SQL, sql } from "drizzle-orm";
import { asArrays } from "../array-rows.js";
import type { Db } from "../connection.js";
import { lazyPerShape } from "../lazy.js";
import { listings } from "../schema.js";
import { shape } from "./listing-search-shape.js";
import { boundedSearch } from "./listing-search-short.js";
import { sliceSearch, walkOf } from "./listing-search-walk.js";
import { listingColumns } from "./listing-sql.js";
import { cursorOf, idBefore, pageLimit } from "./query-helpers.js";

/**
 * Whether pg_trgm can extract a trigram from a `%term%` pattern: it needs three
 * consecutive letters or digits (other characters separate its words).
 */
export function hasTrigram(folded: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(folded);
}

/** Escapes LIKE's wildcards and the escape character itself, so they match literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** `title_folded LIKE '%term%'`, which the trigram index answers. */
function likeCondition(folded: string): SQL {
  return sql`${listings.titleFolded} like ${`%${escapeLike(folded)}%`} escape '\\'`;
}

/**
 * The search, id descending: an inner SELECT finds the page's ids, the outer
 * one fetches those 20-odd rows by primary key. The inner one needs no other
 * column than its index holds for a page, or for a term walking a status's
 * index (which carries expires_at and title_folded), so those walks are
 * index-only scans; a selective term goes to the trigram index instead, and a
 * term with no trigram is bounded by boundedSearch (boundedQuery). Null when
 * no row can match. Walk or trigram index is the planner's choice, on the
 * title histogram: why, DESIGN.md "Walk or trigram index".
 */
export function searchQuery(db: Db, query: ListingSearch, now: Date) {
  if (query.userId !== undefined && !isUuid(query.userId)) return null;
  const folded = query.text === undefined ? "" : foldSearchText(query.text);
  if (folded !== "" && !hasTrigram(folded)) return boundedQuery(db, query, now, folded);
  return pageQuery(db, query, now, folded);
}

/** A page, or a search for a term with a trigram: listings. */
export function pageQuery(db: Db, query: ListingSearch, now: Date, folded: string) {
  const title = folded === "" ? undefined : likeCondition(folded);
  return withPage(db, pageOf(db, query, now, title, idBefore(listings.id, query), pageLimit(query)));
}

/** The listings of `page`'s ids, newest first. */
function withPage(db: Db, page: ReturnType<typeof pageOf>) {
  return db
    .select(listingColumns)
    .from(listings)
    .innerJoin(page, sql`${listings.id} = "page"."id"`)
    .orderBy(desc(listings.id));
}

/** A placeholder where `shape` takes a value: it only hands its values to drizzle's operators. */
const placeholder = <T>(name: string) => sql.placeholder(name) as unknown as T;

/**
 * Pages without a term (every signed-in "my listings" and uncached page): a named statement for
 * each shape, built by drizzle once with placeholders and then only executed with the page's
 * values. Building it per call was three quarters of the adapter's CPU for such a page (about
 * 0.25 ms; bench:http profile, 2026-11-29).
 */
export function pageStatements(db: Db): (query: ListingSearch, now: Date) => Promise<Listing[]> {
  const statement = lazyPerShape(
    (status: ListingSearch["status"], category: boolean, user: boolean, paged: boolean) => {
      const template: ListingSearch = {
        status,
        category: category ? placeholder<Category>("category") : undefined,
        userId: user ? placeholder<string>("userId") : undefined,
        limit: 0,
      };
      const before = paged ? lt(listings.id, sql.placeholder("before")) : undefined;
      const page = pageOf(
        db,
        template,
        placeholder<Date>("now"),
        undefined,
        before,
        sql.placeholder("limit"),
      );
      return asArrays(
        withPage(db, page).prepare(
          `listing_page_${status}${category ? "_category" : ""}${user ? "_user" : ""}${paged ? "_before" : ""}`,
        ),
      );
    },
  );
  return (query, now) => {
    const before = cursorOf(query);
    return statement(
      query.status,
      query.category !== undefined,
      query.userId !== undefined,
      before !== undefined,
    )({
      now: now.toISOString(),
      category: query.category,
      userId: query.userId,
      before,
      limit: pageLimit(query),
    });
  };
}

/**
 * A search for a term without a trigram: each row a listing, or (`resume`,
 * last) the listing it stopped at when it stopped short (see boundedSearch).
 */
export function boundedQuery(db: Db, query: ListingSearch, now: Date, folded: string) {
  return withListings(db, boundedSearch(query, now, folded));
}

/** A search's slice of its walk, whatever the term (see sliceSearch): rows as boundedQuery's. */
export function sliceQuery(db: Db, query: ListingSearch, now: Date, folded: string) {
  return withListings(db, sliceSearch(walkOf(query, now), folded));
}

/** The listings of `bounded`'s rows (id, resume), fetched by primary key, in its order. */
function withListings(db: Db, bounded: SQL) {
  const page = db
    .select({
      id: sql<string>`"bounded"."id"`.as("id"),
      resume: sql<boolean>`"bounded"."resume"`.as("resume"),
    })
    .from(sql`(${bounded}) as "bounded"`)
    .as("page");
  return db
    .select({ listing: listingColumns, resume: page.resume })
    .from(listings)
    .innerJoin(page, sql`${listings.id} = "page"."id"`)
    .orderBy(desc(listings.id), page.resume);
}

/** A bounded search's rows as the port's answer: `resumeBefore` from its marker row. */
export function toSearchResult(rows: { listing: Listing; resume: boolean }[]): ListingSearchResult {
  const found: ListingSearchResult = [];
  for (const row of rows) {
    if (row.resume) found.resumeBefore = row.listing.id;
    else found.push(row.listing);
  }
  return found;
}

/** The page's ids with at most a LIKE on the title: the shape's index, or the trigram index. */
function pageOf(
  db: Db,
  query: ListingSearch,
  now: Date,
  title: SQL | undefined,
  before: SQL | undefined,
  limit: number | Placeholder,
) {
  const { pinned, rest, order } = shape(query, now);
  return db
    .select({ id: listings.id })
    .from(listings)
    .where(and(...pinned, ...rest, title, before))
    .orderBy(...order)
    .limit(limit)
    .as("page");
}
