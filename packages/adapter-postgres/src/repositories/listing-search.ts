import { foldSearchText, isUuid, type ListingSearch } from "@psm/core";
import { and, asc, between, desc, eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../connection.js";
import { listings } from "../schema.js";
import { listingColumns, pastExpiryAt, unexpiredAt } from "./listing-sql.js";
import { idBefore, pageLimit } from "./query-helpers.js";

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

/**
 * The title condition. With a trigram in the term, LIKE on the folded title,
 * which the GIN trigram index answers. Without one the index could only be
 * scanned whole, so strpos (which no index serves) makes the planner walk the
 * newest-first btree instead, filtering until the page is full.
 */
export function titleCondition(text: string): SQL | undefined {
  const folded = foldSearchText(text);
  if (folded === "") return undefined;
  if (hasTrigram(folded)) {
    return sql`${listings.titleFolded} like ${`%${escapeLike(folded)}%`} escape '\\'`;
  }
  return sql`strpos(${listings.titleFolded}, ${folded}) > 0`;
}

/**
 * `column BETWEEN v AND v` rather than `column = v`. PostgreSQL drops a column
 * pinned by `=` from ORDER BY, and then walks the primary key backwards and
 * filters, betting that matches are spread evenly by id; when the newest rows
 * are of another category, status or author, that walk reads them all. Pinned
 * by a range, the column stays in ORDER BY (col, id DESC), which only the
 * dedicated index delivers without a sort, so that index is the plan.
 */
function pinned(column: PgColumn, value: string): SQL {
  return between(column, value, value);
}

/** WHERE and ORDER BY of a search, shaped for the index that serves it. */
function shape(query: ListingSearch, now: Date): { filters: (SQL | undefined)[]; order: SQL[] } {
  // `expired` is stored as active (with a past expires_at), so it walks the active rows.
  const stored = query.status === "all" ? undefined : query.status === "paused" ? "paused" : "active";
  const expiry =
    query.status === "active" ? unexpiredAt(now) : query.status === "expired" ? pastExpiryAt(now) : undefined;
  const id = desc(listings.id);
  if (query.userId !== undefined) {
    // (user_id, id DESC, status, expires_at): an author's page from the index alone.
    const status = stored === undefined ? undefined : eq(listings.status, stored);
    const category = query.category === undefined ? undefined : eq(listings.category, query.category);
    return {
      filters: [pinned(listings.userId, query.userId), status, category, expiry],
      order: [asc(listings.userId), id],
    };
  }
  if (stored === undefined) {
    const category = query.category === undefined ? undefined : eq(listings.category, query.category);
    return { filters: [category, expiry], order: [id] };
  }
  if (query.category !== undefined) {
    const filters = [pinned(listings.category, query.category), pinned(listings.status, stored), expiry];
    return { filters, order: [asc(listings.category), asc(listings.status), id] };
  }
  return { filters: [pinned(listings.status, stored), expiry], order: [asc(listings.status), id] };
}

/**
 * The search, id descending: an inner SELECT finds the page's ids, the outer
 * one fetches those 20-odd rows by primary key. The inner one needs no other
 * column than its index holds for a page, or for a term walking (status, id)
 * (which carries expires_at and title_folded), so those walks are index-only
 * scans; a selective term goes to the trigram index instead. Null when no row
 * can match.
 */
export function searchQuery(db: Db, query: ListingSearch, now: Date) {
  if (query.userId !== undefined && !isUuid(query.userId)) return null;
  const { filters, order } = shape(query, now);
  const title = query.text === undefined ? undefined : titleCondition(query.text);
  const page = db
    .select({ id: listings.id })
    .from(listings)
    .where(and(...filters, title, idBefore(listings.id, query)))
    .orderBy(...order)
    .limit(pageLimit(query))
    .as("page");
  return db
    .select(listingColumns)
    .from(listings)
    .innerJoin(page, eq(listings.id, page.id))
    .orderBy(desc(listings.id));
}
