import {
  type Category,
  type CategoryCounts,
  type FacetQuery,
  foldSearchText,
  type ListingFind,
  relevanceRank,
  type SortKey,
} from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import {
  type FtsQuery,
  facetSql,
  findShape,
  ftsQuery,
  newestWalkSql,
  type PriceSegment,
  pricedMatchesSql,
  priceWalkSql,
  TEXT_HITS_SQL,
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
  /** Rows a facet count examines at most. */
  facets: number;
}
export const FIND_BUDGETS: FindBudgets = { find: 5_000, facets: 20_000 };

/** Runs listings.find and countByCategory with statements prepared once per shape. */
export interface FindRunner {
  find(query: ListingFind, now: Date): FoundRows;
  countByCategory(query: FacetQuery, cap: number, now: Date): CategoryCounts;
}

/** The JS check of rows for `words` (rank 0 or 1 only, or any match), or none when the FTS query is exact. */
function checkOf(words: readonly string[], rank?: number): Check {
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
  const textHits = sqlite.prepare<[Params], number>(TEXT_HITS_SQL).pluck();

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
    const tiers: { match: string | undefined; check: Check }[] =
      query.sort === "relevance" && text
        ? [
            { match: text.title, check: text.exact ? undefined : checkOf(words, 0) },
            { match: text.rest, check: text.exact ? undefined : checkOf(words, 1) },
          ]
        : [{ match: text?.all, check: text && !text.exact ? checkOf(words) : undefined }];
    const collected: { hit: Examined; rank: number }[] = [];
    const shape = findShape(query, text !== undefined && !text.exact);
    for (const [rank, { match, check }] of tiers.entries()) {
      const after = query.after;
      if (after !== undefined && query.sort === "relevance" && after.rank > rank) continue;
      const from = after !== undefined && (query.sort !== "relevance" || after.rank === rank);
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
    const small =
      text !== undefined && (textHits.get({ match: text.all, budget: budgets.find }) ?? 0) <= budgets.find;
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
   * a find's budget of them, as a check costs the same here as in a find's walk.
   */
  function countChecked(sql: string, params: Params, check: Check) {
    const hits = new Map<Category, number>();
    let examined = 0;
    for (const row of statement(sql).iterate(params) as IterableIterator<Examined>) {
      if (row.hit === 1 && (check === undefined || check(row))) {
        hits.set(row.category, (hits.get(row.category) ?? 0) + 1);
      }
      if (++examined >= budgets.find) break;
    }
    const rows = [...hits].map(([category, n]) => ({ category, hits: n }));
    return { rows, stopped: examined >= budgets.find };
  }

  return {
    find(query, now) {
      const params = paramsOf(query, now);
      return query.sort === "price_asc" || query.sort === "price_desc"
        ? byPrice(query, params)
        : byRank(query, params);
    },
    countByCategory(query, cap, now) {
      const text = fts(query.words);
      const params: Params = { ...paramsOf(query, now), budget: budgets.facets };
      if (text) params.match = text.all;
      const shape = findShape(query, text !== undefined && !text.exact);
      const stream = text ? textStreamSql(shape, false) : newestWalkSql(shape, false);
      // Exact FTS queries are counted in SQL; the others row by row, checked.
      const counted =
        text && !text.exact
          ? countChecked(stream, params, checkOf(query.words ?? []))
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
