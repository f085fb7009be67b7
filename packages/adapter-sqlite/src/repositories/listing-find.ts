import {
  type Category,
  type CategoryCounts,
  type FacetQuery,
  foldSearchText,
  holdsEveryWord,
  type ListingFind,
  relevanceRank,
  type SortKey,
  stemsOf,
} from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import { createFtsPlanner } from "./fts-plan.js";
import {
  type FtsQuery,
  facetSql,
  findShape,
  ftsQuery,
  newestWalkSql,
  type PriceSegment,
  pricedMatchesSql,
  priceWalkSql,
  textStreamSql,
} from "./listing-find-sql.js";
import type { ListingRow } from "./listing-rows.js";
import { BY_IDS_SQL } from "./listing-search-sql.js";

type Params = Record<string, string | number | null>;

/** A row a walk examined; title and description only when the words are checked in JS. */
interface Examined {
  id: string;
  price: number | null;
  category: Category;
  hit: number | null;
  title?: string;
  description?: string;
}

/** Which rows a walk keeps beyond its SQL `hit`: those of a relevance rank, or any match. */
type Check = ((row: Examined) => boolean) | undefined;

/** A find's rows in sort order with their ranks; `resumeAfter` as core's ListingFindResult. */
export type FoundRows = { row: ListingRow; rank: number }[] & { resumeAfter?: SortKey };

/** Rows a find or a facet count may examine; why these: DESIGN.md "Full-text search". */
export interface FindBudgets {
  /** Rows one find examines at most, per walk (a relevance find walks two ranks). */
  find: number;
  /** Rows a facet count examines at most in SQL; a quarter of them when each is checked in JS. */
  facets: number;
}
export const FIND_BUDGETS: FindBudgets = { find: 5_000, facets: 10_000 };

/** Runs listings.find and countByCategory with statements prepared once per shape. */
export interface FindRunner {
  find(query: ListingFind, now: Date): FoundRows;
  countByCategory(query: FacetQuery, cap: number, now: Date): CategoryCounts;
}

/** The JS check of rows for `words` (rank 0 or 1 only, or any match). */
function checkOf(words: readonly string[], rank?: number): Check {
  // Rank 0 needs the title alone: no description stemmed.
  if (rank === 0) return (row) => holdsEveryWord(stemsOf(row.title ?? ""), words);
  return (row) => {
    const found = relevanceRank({ title: row.title ?? "", description: row.description ?? "" }, words);
    return rank === undefined ? found !== null : found === rank;
  };
}

export function createFindRunner(sqlite: Database, budgets: FindBudgets = FIND_BUDGETS): FindRunner {
  const prepared = new Map<string, Statement<[Params]>>();
  const statement = (sql: string): Statement<[Params]> => {
    let found = prepared.get(sql);
    if (!found) {
      found = sqlite.prepare<[Params]>(sql);
      prepared.set(sql, found);
    }
    return found;
  };
  const byIds = sqlite.prepare<[Params], ListingRow>(BY_IDS_SQL);
  const planner = createFtsPlanner(sqlite, "listings_text");

  /**
   * The FTS match and per-row check of `exact` (a tier's query) for `text`'s
   * words below cursor id `before`. Several words whose rarest has more than
   * `budget` entries there: an AND of them could step through whole doclists
   * and yield nothing to count, so the rarest word alone drives (in the title
   * for rank 0), each of its rows counted, and the words are checked in JS.
   */
  function matchOf(
    text: FtsQuery,
    words: readonly string[],
    exact: string,
    rank: number | undefined,
    before: string | undefined,
    budget: number,
  ): { match: string; check: Check } {
    if (text.terms.length > 1) {
      const plan = planner.plan(text.terms, planner.from(before), budget);
      if (plan.kind === "driver") {
        return {
          match: rank === 0 ? `{title} : (${plan.driver})` : plan.driver,
          check: checkOf(words, rank),
        };
      }
    }
    return { match: exact, check: text.exact ? undefined : checkOf(words, rank) };
  }

  /** The walk's hits in order, up to `want`, stopping after `budget` rows at the last one examined. */
  function walk(sql: string, params: Params, want: number, budget: number, check: Check) {
    const hits: Examined[] = [];
    let examined = 0;
    if (want <= 0) return { hits };
    for (const row of statement(sql).iterate(params) as IterableIterator<Examined>) {
      if (row.hit === 1 && (check === undefined || check(row)) && hits.push(row) >= want) return { hits };
      // Leaving the loop early closes the statement's cursor (iterate's return()).
      if (++examined >= budget) return { hits, stoppedAt: row };
    }
    return { hits };
  }

  function paramsOf(query: Omit<ListingFind, "sort" | "limit">, now: Date): Params {
    const params: Params = { now: now.getTime() };
    if (query.category !== undefined) params.category = query.category;
    if (query.userId !== undefined) params.userId = query.userId;
    if (query.text !== undefined) params.needle = foldSearchText(query.text);
    if (query.minPrice !== undefined) params.minPrice = query.minPrice;
    if (query.maxPrice !== undefined) params.maxPrice = query.maxPrice;
    return params;
  }

  const fts = (words: readonly string[] | undefined): FtsQuery | undefined =>
    words !== undefined && words.length > 0 ? ftsQuery(words) : undefined;

  function found(hits: { hit: Examined; rank: number }[], resumeAfter?: SortKey): FoundRows {
    const rows = hits.length === 0 ? [] : byIds.all({ ids: JSON.stringify(hits.map(({ hit }) => hit.id)) });
    const byId = new Map(rows.map((row) => [row.id, row]));
    const result: FoundRows = [];
    for (const { hit, rank } of hits) {
      const row = byId.get(hit.id);
      if (row) result.push({ row, rank });
    }
    if (resumeAfter !== undefined) result.resumeAfter = resumeAfter;
    return result;
  }

  /** Newest first, or by relevance: rank 0 then rank 1, each newest first, from the FTS index. */
  function byRank(query: ListingFind, params: Params): FoundRows {
    const words = query.words ?? [];
    const text = fts(words);
    const tiers: { exact: string | undefined; rank: number | undefined }[] =
      query.sort === "relevance" && text
        ? [
            { exact: text.title, rank: 0 },
            { exact: text.rest, rank: 1 },
          ]
        : [{ exact: text?.all, rank: undefined }];
    const collected: { hit: Examined; rank: number }[] = [];
    for (const [rank, tier] of tiers.entries()) {
      const after = query.after;
      if (after !== undefined && query.sort === "relevance" && after.rank > rank) continue;
      const from = after !== undefined && (query.sort !== "relevance" || after.rank === rank);
      const { match, check } =
        text && tier.exact !== undefined
          ? matchOf(text, words, tier.exact, tier.rank, from ? after?.id : undefined, budgets.find)
          : { match: undefined, check: undefined };
      const shape = findShape(query, check !== undefined);
      const sql = match === undefined ? newestWalkSql(shape, from) : textStreamSql(shape, from);
      const tierParams: Params = { ...params, ...(match === undefined ? {} : { match }) };
      if (from && after) tierParams.afterId = after.id;
      const { hits, stoppedAt } = walk(sql, tierParams, query.limit - collected.length, budgets.find, check);
      collected.push(...hits.map((hit) => ({ hit, rank })));
      if (stoppedAt) return found(collected, { rank, price: stoppedAt.price, id: stoppedAt.id });
      if (collected.length >= query.limit) break;
    }
    return found(collected);
  }

  /**
   * By price: the priced segment, then (without price bounds) the unpriced
   * one. A match set within the budget is sorted whole in SQL; a larger one is
   * walked in price order with the words checked per row in JS (an FTS5 check
   * of one rowid reads every segment's doclists: ~1 ms, where JS takes µs).
   */
  function byPrice(query: ListingFind, params: Params): FoundRows {
    const descending = query.sort === "price_desc";
    const words = query.words ?? [];
    const text = fts(words);
    // Small: the rarest word has fewer entries than the budget, and so has their AND.
    const small =
      text !== undefined && planner.plan(text.terms, planner.from(undefined), budgets.find).kind === "all";
    const check = text && !(small && text.exact) ? checkOf(words) : undefined;
    const shape = findShape(query, check !== undefined);
    const segments: PriceSegment[] =
      query.minPrice === undefined && query.maxPrice === undefined ? ["priced", "unpriced"] : ["priced"];
    const collected: { hit: Examined; rank: number }[] = [];
    for (const segment of segments) {
      const after = query.after;
      if (after !== undefined && after.price === null && segment === "priced") continue;
      const from = after !== undefined && (after.price === null) === (segment === "unpriced");
      const sql = small
        ? pricedMatchesSql(shape, descending, segment, from)
        : priceWalkSql(shape, descending, segment, from);
      const segmentParams: Params = { ...params, budget: budgets.find };
      if (small && text) segmentParams.match = text.all;
      if (from && after) {
        segmentParams.afterId = after.id;
        if (segment === "priced") segmentParams.afterPrice = after.price;
      }
      const { hits, stoppedAt } = walk(
        sql,
        segmentParams,
        query.limit - collected.length,
        budgets.find,
        check,
      );
      collected.push(...hits.map((hit) => ({ hit, rank: 0 })));
      if (stoppedAt) return found(collected, { rank: 0, price: stoppedAt.price, id: stoppedAt.id });
      if (collected.length >= query.limit) break;
    }
    return found(collected);
  }

  /**
   * Counts per category among the stream's first rows, checking each in JS:
   * a quarter of the facets budget, as a JS check costs about four rows counted in SQL.
   */
  function countChecked(sql: string, params: Params, check: Check) {
    const hits = new Map<Category, number>();
    const budget = Math.max(1, Math.floor(budgets.facets / 4));
    let examined = 0;
    for (const row of statement(sql).iterate(params) as IterableIterator<Examined>) {
      if (row.hit === 1 && (check === undefined || check(row))) {
        hits.set(row.category, (hits.get(row.category) ?? 0) + 1);
      }
      if (++examined >= budget) break;
    }
    const rows = [...hits].map(([category, n]) => ({ category, hits: n }));
    return { rows, stopped: examined >= budget };
  }

  return {
    find(query, now) {
      const params = paramsOf(query, now);
      return query.sort === "price_asc" || query.sort === "price_desc"
        ? byPrice(query, params)
        : byRank(query, params);
    },
    countByCategory(query, cap, now) {
      const words = query.words ?? [];
      const text = fts(words);
      const { match, check } = text
        ? matchOf(text, words, text.all, undefined, undefined, budgets.facets)
        : { match: undefined, check: undefined };
      const params: Params = { ...paramsOf(query, now), budget: budgets.facets };
      if (match !== undefined) params.match = match;
      const shape = findShape(query, check !== undefined);
      const stream = match !== undefined ? textStreamSql(shape, false) : newestWalkSql(shape, false);
      // Exact FTS queries are counted in SQL; the others row by row, checked.
      const counted = check
        ? countChecked(stream, params, check)
        : (() => {
            const rows = statement(facetSql(stream)).all(params) as {
              category: Category;
              hits: number;
              examined: number;
            }[];
            return { rows, stopped: rows.reduce((sum, row) => sum + row.examined, 0) >= budgets.facets };
          })();
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
