import type { ListingSearch } from "@psm/core";
import { and, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { listings } from "../schema.js";
import { type Shape, shape } from "./listing-search-shape.js";
import { idBefore, pageLimit } from "./query-helpers.js";

/**
 * A column of listings as SQL text, written once: Drizzle renders a column
 * reference anew each time it builds a statement, and these statements hold
 * some forty. Measured: DESIGN.md "Building statements".
 */
function column(of: PgColumn): SQL {
  return sql.raw(`"listings"."${of.name}"`);
}

export const TABLE = sql.raw('"listings"');
export const ID = column(listings.id);
export const TITLE = column(listings.titleFolded);
/** The columns a search filters and orders on, so a subquery of them can stand for the table. */
export const COLUMNS = sql.raw(
  [listings.id, listings.userId, listings.status, listings.category, listings.expiresAt]
    .map((of) => `"listings"."${of.name}"`)
    .join(", "),
);

/** The exact substring test; no index serves it, so it filters rows found otherwise. */
export function strposCondition(folded: string): SQL {
  return sql`strpos(${TITLE}, ${folded}) > 0`;
}

/** A search's shape, and its walk down the shape's index newest first, below the query's cursor. */
export interface Walk extends Shape {
  before: SQL | undefined;
  limit: number;
  /** The shape's ORDER BY. */
  ordered: SQL;
  /** The first `count` entries of the index (after `from`), in its order: a subquery standing for the table. */
  entries(count: number, from?: SQL): SQL;
  /** The id of the `count`-th entry of the index (after `from`): none if it has fewer. */
  last(count: number, from?: SQL): SQL;
}

export function walkOf(query: ListingSearch, now: Date): Walk {
  const shaped = shape(query, now);
  const before = idBefore(listings.id, query);
  const ordered = sql.join(shaped.order, sql`, `);
  const index = and(...shaped.pinned, before) ?? sql`true`;
  return {
    ...shaped,
    before,
    limit: pageLimit(query),
    ordered,
    entries: (count, from) =>
      sql`(select ${COLUMNS}, ${TITLE} from ${TABLE} where ${and(index, from)}
        order by ${ordered} limit ${sql.raw(String(count))})`,
    last: (count, from) =>
      sql`(select ${ID} from ${TABLE} where ${and(index, from)}
        order by ${ordered} offset ${sql.raw(String(count - 1))} limit 1)`,
  };
}

/**
 * A search's answer that costs a walk and no more, however the term is spread
 * (rows `id`, `resume`): the matches among the walk's entries, and the walk's
 * last entry, which the repository hands on as `resumeBefore` (core's
 * ListingSearchResult) so that the next page walks on from there; none when
 * the index ended within the walk, whose matches are then the whole answer.
 * A page the matches fill is whole, its last match the cursor: the last entry
 * is then not looked up, a second walk of the index that a common term spares.
 * boundedSearch answers it for a term common only among older listings, the
 * repository for any term whose search reached its budget (search-budget.ts).
 */
export function sliceSearch(walk: Walk, folded: string): SQL {
  return sql`with "matched" as materialized (
      select ${ID} from ${walk.entries(walk.walk)} as ${TABLE}
      where ${and(...walk.rest, strposCondition(folded))} order by ${walk.ordered} limit ${walk.limit})
    select "id", false as "resume" from "matched"
    union all
    select "id", true from ${walk.last(walk.walk)} as "walk_end"
    where (select count(*) from "matched") < ${walk.limit}
    order by "id" desc, "resume"`;
}
