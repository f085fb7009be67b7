import type { ListingSearch, StoredListingStatus } from "@psm/core";
import { asc, between, desc, eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { listings } from "../schema.js";
import { pastExpiryAt, unexpiredAt } from "./listing-sql.js";

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

/**
 * `status BETWEEN 'active' AND 'active'` (or 'paused'), pinned as above, with
 * the value written into the SQL: it is the predicate of that status's index
 * (listings_active_id_idx, listings_paused_id_idx), which the planner then
 * drops from the scan, and a generic plan of a named page statement proves a
 * predicate only from literals, not from parameters.
 */
function pinnedStatus(status: StoredListingStatus): SQL {
  const value = sql.raw(status === "paused" ? "'paused'" : "'active'");
  return sql`${listings.status} between ${value} and ${value}`;
}

/**
 * A search's WHERE and ORDER BY, shaped for the index that serves it: `pinned`
 * are that index's leading columns (its Index Cond), `rest` what is filtered
 * on the way, `walk` how many entries a term without a trigram reads in that
 * order before it turns to the grams index, and `selective` whether `rest` may
 * pass far fewer rows than the term does (see boundedSearch).
 */
export interface Shape {
  pinned: SQL[];
  rest: (SQL | undefined)[];
  order: SQL[];
  walk: number;
  selective: boolean;
}

/**
 * Entries a search without a trigram walks newest first: a status's partial
 * index carries expires_at and title_folded, so its walk is index-only; the
 * other indexes send each entry to the table for its title. Costs:
 * DESIGN.md "Status indexes".
 */
export const WALK_INDEX_ONLY = 20_000;
export const WALK_WITH_HEAP = 5_000;

/**
 * The entries at the head of a walk that first tell a rare term from one worth
 * walking for (see boundedSearch): a tenth, so a term common enough to fill a
 * page within the walk shows about a tenth of a page there.
 */
export function probeOf(walk: number): number {
  return walk / 10;
}

export function shape(query: ListingSearch, now: Date): Shape {
  // `expired` is stored as active (with a past expires_at), so it walks the active rows.
  const stored = query.status === "all" ? undefined : query.status === "paused" ? "paused" : "active";
  const expiry =
    query.status === "active" ? unexpiredAt(now) : query.status === "expired" ? pastExpiryAt(now) : undefined;
  const id = desc(listings.id);
  const walk = WALK_WITH_HEAP;
  // Most listings are unexpired, the newest above all; expired ones may be few among them.
  const selective = query.status === "expired";
  if (query.userId !== undefined) {
    // (user_id, id DESC, status, expires_at): an author's page from the index alone.
    const status = stored === undefined ? undefined : eq(listings.status, stored);
    const category = query.category === undefined ? undefined : eq(listings.category, query.category);
    return {
      pinned: [pinned(listings.userId, query.userId)],
      rest: [status, category, expiry],
      order: [asc(listings.userId), id],
      walk,
      // The grams are ANDed with the author's listings, however few pass the rest.
      selective: false,
    };
  }
  if (stored === undefined) {
    const category = query.category === undefined ? undefined : eq(listings.category, query.category);
    return { pinned: [], rest: [category, expiry], order: [id], walk, selective: category !== undefined };
  }
  if (query.category !== undefined) {
    return {
      pinned: [pinned(listings.category, query.category), pinned(listings.status, stored)],
      rest: [expiry],
      order: [asc(listings.category), asc(listings.status), id],
      walk,
      selective,
    };
  }
  return {
    // The status index's predicate, not in its key: id alone orders it, NULLS LAST
    // as only that index delivers it (migrations/0007_status_index_key.sql).
    pinned: [pinnedStatus(stored)],
    rest: [expiry],
    order: [sql`${listings.id} desc nulls last`],
    walk: WALK_INDEX_ONLY,
    selective,
  };
}
