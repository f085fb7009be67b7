import type { Category, CategoryCounts, FacetQuery } from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import {
  type Check,
  type Examined,
  type MeetSource,
  matchable,
  type StreamSource,
  sourceOf,
  type WordPlanners,
} from "./find-words.js";
import { meetCut, meetParams } from "./fts-plan.js";
import {
  type FindParams,
  facetSql,
  findParams,
  findShape,
  newestWalkSql,
  textMeetSql,
  textStreamSql,
} from "./listing-find-sql.js";
import { ftsQuery } from "./words-query.js";

// countByCategory: counts per category over the first rows of the walk a find
// would take, bounded by the facets budget (DESIGN.md "Full-text search").

/** A facet count's row: hits of a category, and rows examined when counted in SQL. */
type Counted = { category: Category; hits: number; examined?: number };

/** Counts per category, with statements prepared once per shape. */
export interface FacetCounter {
  countByCategory(query: FacetQuery, cap: number, now: Date): CategoryCounts;
}

/** Counts among at most `facetsBudget` rows (a quarter of them where rows are checked in JS). */
export function createFacetCounter(
  sqlite: Database,
  planners: WordPlanners,
  facetsBudget: number,
): FacetCounter {
  // Counts are of any match: titles and descriptions.
  const planner = planners.listings_text;
  const prepared = new Map<string, Statement<[FindParams]>>();
  const statement = (sql: string): Statement<[FindParams]> => {
    let found = prepared.get(sql);
    if (!found) {
      found = sqlite.prepare<[FindParams]>(sql);
      prepared.set(sql, found);
    }
    return found;
  };
  // Rows checked in JS cost about four counted in SQL: a quarter of the facets budget.
  const checkedBudget = Math.max(1, Math.floor(facetsBudget / 4));

  /**
   * Hits per category among the first `budget` rows of `sql` (a walk's),
   * each checked in JS unless it is `sure` (it holds the last word's whole stem).
   */
  function countChecked(sql: string, params: FindParams, check: Check, budget: number) {
    const hits = new Map<Category, number>();
    let examined = 0;
    for (const row of statement(sql).iterate(params) as IterableIterator<Examined>) {
      if (row.hit === 1 && (check === undefined || row.sure === 1 || check(row))) {
        hits.set(row.category, (hits.get(row.category) ?? 0) + 1);
      }
      if (++examined >= budget) break;
    }
    const rows = [...hits].map(([category, n]) => ({ category, hits: n }));
    return { rows, stopped: examined >= budget };
  }

  /** Hits per category among the first `budget` rows of `sql`, counted in SQL. */
  function countInSql(sql: string, params: FindParams, budget: number) {
    const rows = statement(facetSql(sql)).all({ ...params, budget }) as Counted[];
    return { rows, stopped: rows.reduce((sum, row) => sum + (row.examined ?? 0), 0) >= budget };
  }

  /**
   * Counts where the words' cut streams meet: only rows holding every word
   * are read. A meet's driver did not end within its cut, so rows beyond
   * were not counted: the counts are lower bounds.
   */
  const countMeet = sqlite.transaction((query: FacetQuery, params: FindParams, source: MeetSource) => {
    const cut = meetCut(source.check ? checkedBudget : facetsBudget, source.terms.length);
    const met = meetParams(planner, source.terms, cut, source.from);
    if (met === undefined) return countStream(query, params, source.whole);
    const shape = findShape(query, source.check !== undefined);
    const sure = source.check !== undefined && source.sure !== undefined;
    const bound: FindParams = { ...params, ...met.params };
    if (sure) Object.assign(bound, { sure: source.sure, sureCut: 2 * cut });
    const sql = textMeetSql(shape, source.terms.length, sure);
    const { rows } = source.check
      ? countChecked(sql, bound, source.check, Number.POSITIVE_INFINITY)
      : countInSql(sql, bound, Number.MAX_SAFE_INTEGER);
    return { rows, stopped: true };
  });

  /** Counts among the first rows of an FTS5 query, or of the newest-first index without words. */
  function countStream(query: FacetQuery, params: FindParams, source: StreamSource | undefined) {
    const shape = findShape(query, source?.check !== undefined);
    if (!source) return countInSql(newestWalkSql(shape, false), params, facetsBudget);
    const bound: FindParams = { ...params, match: source.match };
    if (!source.check) return countInSql(textStreamSql(shape, false), bound, facetsBudget);
    const sure = source.sure !== undefined;
    if (sure)
      Object.assign(bound, { sure: source.sure, sureCut: 2 * checkedBudget, from: planner.from(undefined) });
    return countChecked(textStreamSql(shape, false, sure), bound, source.check, checkedBudget);
  }

  return {
    countByCategory(query, cap, now) {
      const words = query.words ?? [];
      const text = words.length > 0 ? ftsQuery(words, planner) : undefined;
      // Nothing can match: nothing is left uncounted either.
      if (!matchable(planner, text)) return { counts: {}, capped: false };
      const source = text ? sourceOf(planners, text, words, "any", undefined) : undefined;
      const params = findParams(query, now);
      const counted =
        source?.kind === "meet" ? countMeet(query, params, source) : countStream(query, params, source);
      const counts: Partial<Record<Category, number>> = {};
      let capped = false;
      for (const row of counted.rows) {
        if (row.hits === 0) continue;
        counts[row.category] = Math.min(row.hits, cap);
        if (row.hits > cap) capped = true;
      }
      // At the budget, the rows not examined may hold more matches: the counts are lower bounds.
      return { counts, capped: capped || counted.stopped };
    },
  };
}
