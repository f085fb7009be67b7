import type { ListingSearch } from "@psm/core";
import { and, type SQL, sql } from "drizzle-orm";
import { listings } from "../schema.js";
import { shape } from "./listing-search-shape.js";
import { idBefore, pageLimit } from "./query-helpers.js";

// Searches for a term without a trigram (1 or 2 characters, `c++`, `a b`), which pg_trgm cannot
// serve: a bounded walk newest first, then the grams index (migrations/0005_title_grams.sql).

/**
 * The grams of a folded term that has no trigram, which every title holding
 * the term has among its psm_title_grams (migrations/0005_title_grams.sql):
 * the term itself up to 2 characters, else its 3-character windows, each of
 * which has a character other than a letter or digit (else it would be a
 * trigram), so the function keeps it. Characters are code points, as
 * PostgreSQL counts them in a UTF-8 database.
 */
export function termGrams(folded: string): string[] {
  const chars = Array.from(folded);
  if (chars.length <= 2) return [folded];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(""));
  return [...grams];
}

/** The exact substring test; no index serves it, so it filters rows found otherwise. */
function strposCondition(folded: string): SQL {
  return sql`strpos(${listings.titleFolded}, ${folded}) > 0`;
}

/** The rows whose title has every one of `grams` (listings_title_grams_idx); a superset of the matches. */
function gramsCondition(grams: string[]): SQL {
  const elements = sql.join(
    grams.map((gram) => sql`${gram}`),
    sql`, `,
  );
  return sql`psm_title_grams(${listings.titleFolded}) @> array[${elements}]::text[]`;
}

/** The columns a search filters and orders on, so a subquery of them can stand for the table. */
const searchColumns = {
  id: listings.id,
  userId: listings.userId,
  status: listings.status,
  category: listings.category,
  expiresAt: listings.expiresAt,
};

/**
 * The page's ids for a term without a trigram (1 or 2 characters, or things
 * like `c++`, `a b`), bounded however rare the term. Walking the newest-first
 * index with strpos fills a page at once when the term is common, but reads
 * every row when it is rare or absent (~0.2 s at 1M listings); the grams
 * index finds a rare term at once but hands back every row of a common one.
 * The choice is made on the rows read, not on the planner's estimates, which
 * cannot tell a gram in 0.001% of titles from one in 0.5%. In one statement:
 * - `hits`: the matches among the first `walk` entries of the shape's index,
 *   newest first. A common term fills the page within a few entries, and
 *   nothing else runs.
 * - Otherwise, unless the walk ran out of rows, the matches older than its
 *   last entry (`edge`), found by the grams index (`older`) and rechecked
 *   with strpos. They are few unless the term is far more common in older
 *   listings than in the newest `walk`.
 * Each branch is a MATERIALIZED CTE, run only when a one-time filter lets it
 * be read. `older` is planned for all its rows (the grams index), not for the
 * first few in id order (the unbounded walk again); the shape's filters are
 * applied to its rows, not inside it, where the planner would AND the grams
 * with a status or category index (~10 ms of a 100,000-entry bitmap), except
 * an author's, whose listings are few. The subqueries and CTEs are read under
 * the table's own name, so the same filters (written against its columns)
 * apply to them.
 */
export function boundedSearch(query: ListingSearch, now: Date, folded: string): SQL {
  const { pinned, rest, order, walk, selective } = shape(query, now);
  const before = idBefore(listings.id, query);
  const limit = pageLimit(query);
  const found = strposCondition(folded);
  const ordered = sql.join(order, sql`, `);
  const columns = sql.join(Object.values(searchColumns), sql`, `);
  const index = and(...pinned, before) ?? sql`true`;
  const entries = sql`(select ${columns}, ${listings.titleFolded} from ${listings} where ${index}
    order by ${ordered} limit ${sql.raw(String(walk))})`;
  const edge = sql`(select ${listings.id} from ${listings} where ${index}
    order by ${ordered} offset ${sql.raw(String(walk - 1))} limit 1)`;
  // An author's listings are few beside the table: worth ANDing with the grams.
  const narrow = query.userId === undefined ? [] : pinned;
  const older = sql`(select ${columns} from ${listings}
    where ${and(...narrow, gramsCondition(termGrams(folded)), found)})`;
  const fromOlder = sql`select ${listings.id} from "older" as ${listings}
    where ${and(...pinned, ...rest, before, sql`${listings.id} < (select "id" from "edge")`)}`;
  if (!selective) {
    return sql`with "hits" as materialized (
        select ${listings.id} from ${entries} as ${listings} where ${and(...rest, found)}
        order by ${ordered} limit ${limit}),
      "edge" as materialized ${edge},
      "older" as materialized ${older}
      select "id" from "hits"
      union all
      ${fromOlder}
        and case when (select count(*) from "hits") < ${limit} then exists (select from "edge") else false end
      order by "id" desc limit ${limit}`;
  }
  // A filter rarer than the term (expired listings among the newest, a category
  // when every status is searched) would leave the page short of matches that
  // the grams index could only find among all of the term's. So `probe` takes
  // the term's first matches before that filter (`tally` counts them, and
  // those passing it). The term is rare when they fall short of the page: the
  // grams index as above. Otherwise the plain walk (`walked`), as a search did
  // before the grams index, unless the matches already fill the page.
  const shown = sql`(${and(...rest) ?? sql`true`})`;
  const walked = sql`(select ${listings.id} from ${listings} where ${and(...pinned, ...rest, found, before)}
    order by ${ordered} limit ${limit})`;
  const heldBack = sql`(select "raw" = ${limit} and "shown" < ${limit} from "tally")`;
  return sql`with "probe" as materialized (
      select ${listings.id}, ${shown} as "shown" from ${entries} as ${listings}
      where ${found} order by ${ordered} limit ${limit}),
    "tally" as materialized (
      select count(*) as "raw", count(*) filter (where "shown") as "shown" from "probe"),
    "edge" as materialized ${edge},
    "walked" as materialized ${walked},
    "older" as materialized ${older}
    select "id" from "probe" where "shown" and not ${heldBack}
    union all
    select "id" from "walked" where ${heldBack}
    union all
    ${fromOlder}
      and case when (select "raw" < ${limit} from "tally") then exists (select from "edge") else false end
    order by "id" desc limit ${limit}`;
}
