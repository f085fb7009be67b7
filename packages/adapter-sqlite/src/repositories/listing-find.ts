import type { CategoryCounts, FacetQuery, ListingFind, SortKey } from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import { createCategoryWords } from "./category-words.js";
import {
  type Check,
  checkOf,
  type Examined,
  type MeetSource,
  matchable,
  type StreamSource,
  sourceOf,
  type Tier,
  type WordPlanners,
  type WordSource,
} from "./find-words.js";
import { createFtsPlanner, firstCut, meetCut, meetParams, nextCut } from "./fts-plan.js";
import { createTermMemos } from "./fts-term-memo.js";
import { createFacetCounter } from "./listing-facets.js";
import {
  type FindParams,
  findParams,
  findShape,
  newestWalkSql,
  type PriceSegment,
  pricedMatchesSql,
  priceWalkSql,
  textMeetSql,
  textStreamSql,
} from "./listing-find-sql.js";
import type { ListingRow } from "./listing-rows.js";
import { BY_IDS_SQL } from "./listing-search-sql.js";
import { type FtsQuery, ftsQuery } from "./words-query.js";

type Params = FindParams;

/** Where a walk stopped at its budget: the last row examined. */
type Stop = { id: string; price: number | null };

/** A walk's hits in order, and where it stopped short. */
interface Walked {
  hits: Examined[];
  stoppedAt?: Stop;
}

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
  const memos = createTermMemos(sqlite);
  const planners: WordPlanners = {
    listings_text: createFtsPlanner(sqlite, "listings_text", memos.of("listings_text")),
    listings_title: createFtsPlanner(sqlite, "listings_title", memos.of("listings_title")),
  };
  const planner = planners.listings_text;
  const facets = createFacetCounter(sqlite, planners, budgets.facets);
  const categoryWords = createCategoryWords(sqlite, memos);

  /** The walk's hits in order, up to `want`, stopping after `budget` rows at the last one examined. */
  function walk(sql: string, params: Params, want: number, budget: number, check: Check): Walked {
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

  const rowAt = sqlite.prepare<[{ rowid: bigint; top: bigint }], Stop>(
    "SELECT id, price FROM listings WHERE seq = @top - @rowid",
  );

  /**
   * One cut of a meet (fts-plan.ts meetParams), planned and read in one read
   * transaction: the rows in every stream, and on a short page `upTo`, where
   * the nearest cut stream stops (every row above it was examined). `whole`
   * when the driver ended within the cut and its exact AND was walked instead.
   */
  const meetOnce = sqlite.transaction(
    (query: ListingFind, params: Params, source: MeetSource, cut: number, afterId?: string) => {
      const met = meetParams(source.planner, source.terms, cut, source.from);
      if (met === undefined) return { ...streamWalk(query, params, source.whole, afterId), whole: true };
      const shape = findShape(query, source.check !== undefined);
      const sql = textMeetSql(shape, source.terms.length, false, source.table, true);
      const top = source.top ?? 0n;
      const walked = walk(
        sql,
        { ...params, ...met.params, ...(source.top === undefined ? {} : { top }) },
        query.limit,
        Number.POSITIVE_INFINITY,
        source.check,
      );
      if (walked.hits.length < query.limit) {
        const stop = rowAt.get({ rowid: met.upTo, top });
        if (stop) walked.stoppedAt = stop;
      }
      return { ...walked, whole: false };
    },
  );

  /**
   * A meet at growing cuts, up to the budget's: a few pages' worth of the
   * driver first, then as far as the rate found says the page needs
   * (fts-plan.ts firstCut, nextCut): streams that meet often fill a page at
   * the first, and words that never meet go to the whole budget's at the second.
   */
  function walkMeet(query: ListingFind, params: Params, source: MeetSource, afterId?: string): Walked {
    const full = meetCut(budgets.find, source.terms.length);
    for (let cut = firstCut(query.limit, full); ; ) {
      const once = meetOnce(query, params, source, cut, afterId);
      if (once.whole || once.hits.length >= query.limit || cut >= full) return once;
      cut = nextCut(cut, once.hits.length, query.limit, full);
    }
  }

  /** The rows of one FTS5 query, or without words of the newest-first index, after `afterId`. */
  function streamWalk(
    query: ListingFind,
    params: Params,
    source: StreamSource | undefined,
    afterId?: string,
  ) {
    const shape = findShape(query, source?.check !== undefined);
    const from = afterId !== undefined;
    const tierParams: Params = { ...params };
    if (afterId !== undefined) tierParams.afterId = afterId;
    if (source) tierParams.match = source.match;
    if (source?.range) {
      tierParams.from = source.range.from;
      tierParams.top = source.range.top;
    }
    const sql = source ? textStreamSql(shape, from, false, source.table) : newestWalkSql(shape, from);
    return walk(sql, tierParams, query.limit, budgets.find, source?.check);
  }

  /** A tier's rows, after `afterId`. */
  function walkTier(query: ListingFind, params: Params, source: WordSource | undefined, afterId?: string) {
    if (query.limit <= 0) return { hits: [] };
    return source?.kind === "meet"
      ? walkMeet(query, params, source, afterId)
      : streamWalk(query, params, source, afterId);
  }

  const fts = (words: readonly string[] | undefined): FtsQuery | undefined =>
    words !== undefined && words.length > 0 ? ftsQuery(words, planner) : undefined;

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
  function byRank(query: ListingFind, params: Params, text: FtsQuery | undefined): FoundRows {
    const words = query.words ?? [];
    const tiers: Tier[] = query.sort === "relevance" && text ? [0, 1] : ["any"];
    const collected: { hit: Examined; rank: number }[] = [];
    const category = text && query.category !== undefined ? categoryWords(query.category) : undefined;
    for (const [rank, tier] of tiers.entries()) {
      const after = query.after;
      if (after !== undefined && query.sort === "relevance" && after.rank > rank) continue;
      const afterId =
        after !== undefined && (query.sort !== "relevance" || after.rank === rank) ? after.id : undefined;
      const source = text ? sourceOf(planners, text, words, tier, afterId, category) : undefined;
      const limit = query.limit - collected.length;
      const { hits, stoppedAt } = walkTier({ ...query, limit }, params, source, afterId);
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
  function byPrice(query: ListingFind, params: Params, text: FtsQuery | undefined): FoundRows {
    const descending = query.sort === "price_desc";
    const words = query.words ?? [];
    // Small: the rarest word has fewer entries than the budget, and so has their AND.
    const small =
      text !== undefined && planner.plan(text.terms, planner.from(undefined), budgets.find).kind === "all";
    const check = text && !(small && text.exact) ? checkOf(words, "any") : undefined;
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

  return {
    find: (query, now) =>
      memos.around(() => {
        const text = fts(query.words);
        if (!matchable(planner, text)) return found([]);
        const params = findParams(query, now);
        return query.sort === "price_asc" || query.sort === "price_desc"
          ? byPrice(query, params, text)
          : byRank(query, params, text);
      }),
    countByCategory: (query, cap, now) => memos.around(() => facets.countByCategory(query, cap, now)),
  };
}
