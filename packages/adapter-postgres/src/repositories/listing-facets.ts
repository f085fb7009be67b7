import { CATEGORY_VALUES, type Category, type CategoryCounts, type FacetQuery } from "@psm/core";
import { and, type SQL, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { filters, matches, matchesWord, pinnedFilters } from "./listing-find-sql.js";

// countByCategory: facet counts of a search, exactly or over a bounded walk. DESIGN.md "Full-text search".

/** Entries the newest-first walk of countSlice examines. */
export const FACET_SLICE = 10_000;

/**
 * Matches the planner may expect (its statistics on `search_vector`'s words)
 * for facets with words to be counted exactly, through the GIN index; and
 * listings it may expect for the query's last word as a prefix (which the
 * index reads whole) and for its rarest word (which drives the index's scan
 * of the others). Above either the counts are countSlice's, bounded:
 * DESIGN.md "Full-text search".
 */
export const FACET_EXACT_ESTIMATE = 10_000;
export const FACET_WORD_ESTIMATE = 100_000;

/** The planner's estimates of rows for each statement of a UNION ALL, in order. */
async function estimates(db: Db, statements: SQL[]): Promise<number[]> {
  const [row] = await db.execute<Record<string, [{ Plan: PlanNode }]>>(
    sql`explain (format json) ${sql.join(statements, sql` union all `)}`,
  );
  const [plan] = Object.values(row ?? {})[0] ?? [];
  let node = plan?.Plan;
  // Down to the Append of the statements (below a Gather where the plan is parallel: not on the search pool).
  while (node !== undefined && !node["Node Type"].endsWith("Append") && node.Plans?.length === 1)
    node = node.Plans[0];
  return (node?.Plans ?? []).map((part) => part["Plan Rows"]);
}

interface PlanNode {
  "Node Type": string;
  "Plan Rows": number;
  Plans?: PlanNode[];
}

/** The facets of `query`, counted exactly when the planner expects that to be cheap, else over countSlice's walk. */
export async function countFacets(
  db: Db,
  query: FacetQuery,
  cap: number,
  now: Date,
): Promise<CategoryCounts> {
  const words = query.words ?? [];
  if (words.length === 0) return countExactly(db, query, cap, now);
  const rows = (where: SQL | undefined) => sql`(select 1 from "listings" where ${where ?? sql`true`})`;
  const [all, last, ...others] = await estimates(db, [
    rows(and(...filters(query, now), matches(words))),
    rows(matchesWord(words.at(-1)!, true)),
    ...words.slice(0, -1).map((word) => rows(matchesWord(word, false))),
  ]);
  const exact =
    all !== undefined &&
    last !== undefined &&
    all <= FACET_EXACT_ESTIMATE &&
    last <= FACET_WORD_ESTIMATE &&
    Math.min(last, ...others) <= FACET_WORD_ESTIMATE;
  return exact ? countExactly(db, query, cap, now) : countSlice(db, query, cap, now);
}

/**
 * Per category, its matches up to cap + 1 (so a count above the cap shows as
 * such). Without words each count walks (category, status, id), which the
 * ORDER BY makes the plan: without it the planner may walk every active
 * listing for each category, filtering on category. With words (few matches
 * expected: countFacets) one statement counts them all from one bitmap of the
 * GIN index, instead of one per category.
 */
export async function countExactly(
  db: Db,
  query: FacetQuery,
  cap: number,
  now: Date,
): Promise<CategoryCounts> {
  if (query.words !== undefined && query.words.length > 0) {
    const rows = await db.execute<{
      category: Category;
      n: number;
    }>(sql`select "listings"."category" as category,
        count(*)::int as n from "listings" where ${and(...filters(query, now), matches(query.words))}
      group by "listings"."category"`);
    return toCounts(rows, cap, false);
  }
  const order =
    query.status !== "all"
      ? sql`order by "listings"."category", "listings"."status", "listings"."id" desc`
      : sql``;
  const rows = await db.execute<{ category: Category; n: number }>(sql`select c.category,
      (select count(*)::int from (select 1 from "listings"
        where "listings"."category" = c.category and ${and(...filters(query, now)) ?? sql`true`}
        ${order} limit ${cap + 1}) as s) as n
    from (values ${sql.join(
      CATEGORY_VALUES.map((category) => sql`(${category})`),
      sql`, `,
    )}) as c(category)`);
  return toCounts(rows, cap, false);
}

/**
 * Counts among the newest `slice` entries: lower bounds, flagged capped
 * unless the walk reached the last entry (then they are the whole set's).
 */
export async function countSlice(
  db: Db,
  query: FacetQuery,
  cap: number,
  now: Date,
  slice = FACET_SLICE,
): Promise<CategoryCounts> {
  const words = query.words !== undefined && query.words.length > 0 ? [matches(query.words)] : [];
  const pinned = pinnedFilters(query);
  const hit = and(...filters(query, now), ...words) ?? sql`true`;
  const rows = await db.execute<{ category: Category; n: number; examined: number }>(sql`select category,
      (count(*) filter (where hit))::int as n, count(*)::int as examined
      from (select "listings"."category" as category, (${hit}) as hit
        from "listings" where ${and(...pinned) ?? sql`true`} order by "listings"."id" desc limit ${slice}) as w
    group by category`);
  const examined = rows.reduce((sum, row) => sum + (row?.examined ?? 0), 0);
  return toCounts(rows, cap, examined >= slice);
}

/**
 * The counts of `rows`, each at most `cap`. A hole in the result (seen once in a few hundred
 * facet counts on the search pool under load: postgres.js 3.4.9 after a statement cancelled
 * mid-result, now patched, driver-rows.test.ts) counts as a category not counted, so the counts
 * are lower bounds and flagged so, rather than a TypeError that failed the whole page.
 */
export function toCounts(
  rows: readonly ({ category: Category; n: number } | undefined)[],
  cap: number,
  capped: boolean,
): CategoryCounts {
  const counts: Partial<Record<Category, number>> = {};
  let over = capped;
  for (const row of rows) {
    if (row === undefined || row === null) {
      over = true;
      continue;
    }
    if (row.n <= 0) continue;
    counts[row.category] = Math.min(row.n, cap);
    if (row.n > cap) over = true;
  }
  return { counts, capped: over };
}
