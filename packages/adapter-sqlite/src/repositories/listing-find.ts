import type { Category, CategoryCounts, FacetQuery, ListingFind, SortKey } from "@psm/core";
import { foldSearchText } from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import {
  everyWord,
  everyWordInTitle,
  everyWordNotAllInTitle,
  facetSql,
  findShape,
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

/** A row a walk examined. */
interface Examined {
  id: string;
  price: number | null;
  category: Category;
  hit: number | null;
}

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
  function walk(sql: string, params: Params, want: number, budget: number) {
    const hits: Examined[] = [];
    let examined = 0;
    if (want <= 0) return { hits };
    for (const row of statement(sql).iterate(params) as IterableIterator<Examined>) {
      if (row.hit === 1 && hits.push(row) >= want) return { hits };
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
    if (query.words !== undefined && query.words.length > 0) params.match = everyWord(query.words);
    return params;
  }

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

  /** Newest first, or by relevance: rank 0 then rank 1, each newest first. */
  function byRank(query: ListingFind, params: Params): FoundRows {
    const words = query.words ?? [];
    const tiers =
      query.sort === "relevance" && words.length > 0
        ? [everyWordInTitle(words), everyWordNotAllInTitle(words)]
        : [words.length > 0 ? everyWord(words) : undefined];
    const collected: { hit: Examined; rank: number }[] = [];
    const shape = findShape(query, false);
    for (const [rank, match] of tiers.entries()) {
      const after = query.after;
      if (after !== undefined && query.sort === "relevance" && after.rank > rank) continue;
      const from = after !== undefined && (query.sort !== "relevance" || after.rank === rank);
      const sql = match === undefined ? newestWalkSql(shape, from) : textStreamSql(shape, from);
      const tierParams: Params = { ...params, ...(match === undefined ? {} : { match }) };
      if (from && after) tierParams.afterId = after.id;
      const { hits, stoppedAt } = walk(sql, tierParams, query.limit - collected.length, budgets.find);
      collected.push(...hits.map((hit) => ({ hit, rank })));
      if (stoppedAt) return found(collected, { rank, price: stoppedAt.price, id: stoppedAt.id });
      if (collected.length >= query.limit) break;
    }
    return found(collected);
  }

  /** By price: the priced segment, then (without price bounds) the unpriced one. */
  function byPrice(query: ListingFind, params: Params): FoundRows {
    const descending = query.sort === "price_desc";
    const words = query.words !== undefined && query.words.length > 0;
    // A match set within the budget is sorted whole; a larger one is walked in
    // price order, each row checked against the FTS index.
    const small =
      words && (textHits.get({ match: params.match ?? "", budget: budgets.find }) ?? 0) <= budgets.find;
    const shape = findShape(query, words && !small);
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
      if (from && after) {
        segmentParams.afterId = after.id;
        if (segment === "priced") segmentParams.afterPrice = after.price;
      }
      const { hits, stoppedAt } = walk(sql, segmentParams, query.limit - collected.length, budgets.find);
      collected.push(...hits.map((hit) => ({ hit, rank: 0 })));
      if (stoppedAt) return found(collected, { rank: 0, price: stoppedAt.price, id: stoppedAt.id });
      if (collected.length >= query.limit) break;
    }
    return found(collected);
  }

  return {
    find(query, now) {
      const params = paramsOf(query, now);
      return query.sort === "price_asc" || query.sort === "price_desc"
        ? byPrice(query, params)
        : byRank(query, params);
    },
    countByCategory(query, cap, now) {
      const params: Params = { ...paramsOf(query, now), budget: budgets.facets };
      const shape = findShape(query, false);
      const words = query.words !== undefined && query.words.length > 0;
      const stream = words ? textStreamSql(shape, false) : newestWalkSql(shape, false);
      const rows = statement(facetSql(stream)).all(params) as {
        category: Category;
        hits: number;
        examined: number;
      }[];
      const counts: Partial<Record<Category, number>> = {};
      let examined = 0;
      let capped = false;
      for (const row of rows) {
        examined += row.examined;
        if (row.hits === 0) continue;
        counts[row.category] = Math.min(row.hits, cap);
        if (row.hits > cap) capped = true;
      }
      // At the budget, the rows not examined may hold more matches: the counts are lower bounds.
      return { counts, capped: capped || examined >= budgets.facets };
    },
  };
}
