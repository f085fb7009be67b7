import type { ListingSearch } from "@psm/core";
import { and, type SQL, sql } from "drizzle-orm";
import { probeOf, WALK_INDEX_ONLY } from "./listing-search-shape.js";
import { COLUMNS, ID, sliceSearch, strposCondition, TABLE, TITLE, walkOf } from "./listing-search-walk.js";

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

/**
 * The most candidates the grams index hands `older` (see boundedSearch).
 * Why 2,000: DESIGN.md "Older candidates".
 */
export const OLDER_CAP = 2000;
const CAP = sql.raw(String(OLDER_CAP));

/** The rows whose title has every one of `grams` (listings_title_grams_idx); a superset of the matches. */
function gramsCondition(grams: string[]): SQL {
  const elements = sql.join(
    grams.map((gram) => sql`${gram}`),
    sql`, `,
  );
  return sql`psm_title_grams(${TITLE}) @> array[${elements}]::text[]`;
}

/**
 * The page's ids for a term without a trigram (1 or 2 characters, or things
 * like `c++`, `a b`), bounded however rare the term, chosen on the rows read
 * in one statement of MATERIALIZED CTEs that `choice` reads in order:
 * - `probe`: the matches among the first tenth of the walk (probeOf);
 * - `hits`: the rest of the walk, when the probe found enough matches;
 * - `older`: the grams index's candidates (at most OLDER_CAP), rechecked;
 * - `slice`: past the cap, the walk's matches and last entry (sliceSearch).
 * Why each step and threshold, and what it costs: DESIGN.md "Terms without a trigram".
 */
export function boundedSearch(query: ListingSearch, now: Date, folded: string): SQL {
  const searched = walkOf(query, now);
  const { pinned, rest, walk, selective, before, limit, ordered, entries, last } = searched;
  const found = strposCondition(folded);
  // An author's listings are few beside the table: worth ANDing with the grams.
  const narrow = query.userId === undefined ? [] : pinned;
  if (!selective) {
    const probe = probeOf(walk);
    // The walk goes on past the probe's last match: the entries after it in the probe matched nothing.
    const afterProbe = sql`${ID} < (select "id" from "probe" order by "id" limit 1)`;
    // A status's own index, which alone walks WALK_INDEX_ONLY entries: `older` carries the filters.
    const filtered = walk === WALK_INDEX_ONLY;
    const grams = gramsCondition(termGrams(folded));
    // Which CTEs hold the page: 0 the probe, 1 the probe and hits, 2 older, 3
    // the walk's slice. The CASE reads each CTE only when the ones before it
    // did not settle that.
    const sparse = sql`2 * "n" * ${sql.raw(String(walk))} < ${limit} * ${sql.raw(String(probe))}`;
    const olderOrSlice = sql`case when (select count(*) from "older") > ${CAP} then 3 else 2 end`;
    const choice = filtered
      ? sql`case when "n" = ${limit} then 0 when ${sparse} then ${olderOrSlice}
          when "n" + (select count(*) from "hits") = ${limit} then 1 else ${olderOrSlice} end`
      : sql`case when "n" = ${limit} then 0
          when ${sparse} then case when exists (select from "probe_end") then ${olderOrSlice} else 0 end
          when "n" + (select count(*) from "hits") = ${limit} then 1
          when exists (select from "edge") then ${olderOrSlice} else 1 end`;
    const held = sql`(select "held" from "choice")`;
    const older = filtered
      ? sql`select ${ID}, ${TITLE} from ${TABLE} where ${and(...pinned, ...rest, before, grams)} limit ${CAP} + 1`
      : sql`select ${COLUMNS}, ${TITLE} from ${TABLE} where ${and(...narrow, grams)} limit ${CAP} + 1`;
    const fromOlder = filtered
      ? sql`select ${ID}, false from "older" as ${TABLE} where ${and(found, sql`${held} = 2`)}`
      : sql`select ${ID}, false from "older" as ${TABLE}
          where ${and(...pinned, ...rest, before, found, sql`${held} = 2`)}`;
    const ends = filtered
      ? sql``
      : sql`"probe_end" as materialized ${last(probe)},
        "edge" as materialized ${last(walk - probe, afterProbe)},`;
    return sql`with "probe" as materialized (
        select ${ID} from ${entries(probe)} as ${TABLE} where ${and(...rest, found)}
        order by ${ordered} limit ${limit}),
      "hits" as materialized (
        select ${ID} from ${entries(walk - probe, afterProbe)} as ${TABLE}
        where ${and(...rest, found)} order by ${ordered} limit ${limit} - (select count(*) from "probe")),
      ${ends}
      "older" as materialized (${older}),
      "slice" as materialized (${sliceSearch(searched, folded)}),
      "choice" as materialized (select ${choice} as "held" from (select count(*) as "n" from "probe") as "probed")
      select "id", false as "resume" from "probe" where ${held} < 2
      union all
      select "id", false from "hits" where ${held} = 1
      union all
      ${fromOlder}
      union all
      select "id", "resume" from "slice" where ${held} = 3
      order by "id" desc, "resume" limit ${limit}`;
  }
  // A filter rarer than the term (expired listings among the newest, a category
  // when every status is searched) would leave the page short of matches that
  // the grams index could only find among all of the term's. So `probe` takes
  // the term's first matches before that filter (`tally` counts them, and
  // those passing it). The term is rare when they fall short of the page: the
  // grams index as above. Otherwise the plain walk (`walked`), as a search did
  // before the grams index, unless the matches already fill the page.
  const shown = sql`(${and(...rest) ?? sql`true`})`;
  const walked = sql`(select ${ID} from ${TABLE} where ${and(...pinned, ...rest, found, before)}
    order by ${ordered} limit ${limit})`;
  const heldBack = sql`(select "raw" = ${limit} and "shown" < ${limit} from "tally")`;
  const older = sql`(select ${COLUMNS}, ${TITLE} from ${TABLE}
    where ${and(...narrow, gramsCondition(termGrams(folded)))} limit ${CAP} + 1)`;
  // Rare within the walk, and the walk did not reach the index's end: older, or the walk's slice.
  const beyond = sql`case when (select "raw" < ${limit} from "tally") then exists (select from "edge") else false end`;
  const capped = sql`(select count(*) from "older") > ${CAP}`;
  const fromOlder = sql`select ${ID}, false from "older" as ${TABLE}
    where ${and(...pinned, ...rest, before, found, sql`${ID} < (select "id" from "edge")`)}`;
  return sql`with "probe" as materialized (
      select ${ID}, ${shown} as "shown" from ${entries(walk)} as ${TABLE}
      where ${found} order by ${ordered} limit ${limit}),
    "tally" as materialized (
      select count(*) as "raw", count(*) filter (where "shown") as "shown" from "probe"),
    "edge" as materialized ${last(walk)},
    "walked" as materialized ${walked},
    "older" as materialized ${older}
    select "id", false as "resume" from "probe" where "shown" and not ${heldBack}
    union all
    select "id", false from "walked" where ${heldBack}
    union all
    ${fromOlder} and case when ${beyond} then not ${capped} else false end
    union all
    select "id", true from "edge" where case when ${beyond} then ${capped} else false end
    order by "id" desc, "resume" limit ${limit}`;
}
