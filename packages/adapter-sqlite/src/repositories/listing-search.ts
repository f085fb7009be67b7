import { foldSearchText, type ListingSearch } from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import { createFtsPlanner, FIRST_CUT, meetParams } from "./fts-plan.js";
import { ftsAll, ftsAny, ftsTrigrams, MAX_AND, TRIGRAM, trigramRange } from "./fts-query.js";
import { createTermMemos } from "./fts-term-memo.js";
import type { ListingRow } from "./listing-rows.js";
import {
  BY_IDS_SQL,
  ftsStopSql,
  ID_OF_ROWID_SQL,
  type Shape,
  searchSql,
  TRIGRAMS_SQL,
} from "./listing-search-sql.js";

type Params = Record<string, string | number>;

/** Options of the search runner. */
export interface SearchOptions {
  /** Rows a short term may examine newest-first before it turns to the index. */
  walkBudget?: number | undefined;
  /**
   * Rows a search with a term may examine before it stops short (see
   * SearchRows.resumeBefore): index candidates, or an author's listings.
   */
  searchBudget?: number | undefined;
}

/** Candidates of the rarest trigram tried alone before its streams meet. */
const QUICK = 64;

/** Candidates a search examines at most. Why 5,000: DESIGN.md "Search budget". */
export const SEARCH_BUDGET = 5_000;

/** A search's rows; `resumeBefore` as core's ListingSearchResult has it. */
export type SearchRows = ListingRow[] & { resumeBefore?: string };

/** Runs searches with one prepared statement per shape. */
export interface SearchRunner {
  run(query: ListingSearch, now: Date): SearchRows;
}

/** The ids of a budgeted walk's hits, and the last row it examined when it stopped at its budget. */
interface Walked {
  ids: string[];
  stoppedAt?: string;
}

/**
 * Creates a runner that prepares each search shape on first use. A search with
 * a term examines rows newest first and stops at `limit` hits or after
 * `searchBudget` rows, then with `resumeBefore`, the last row examined: an
 * author's listings, FTS5 trigram candidates (3+ characters), or for shorter
 * terms a walk of `walkBudget` rows, then the trigrams that start with the
 * term. Why each path: DESIGN.md "Search paths".
 */
export function createSearchRunner(sqlite: Database, options: SearchOptions = {}): SearchRunner {
  const walkBudget = options.walkBudget ?? 500;
  // At least one row, or a search could never move past its cursor.
  const searchBudget = Number.isFinite(options.searchBudget)
    ? Math.max(1, Math.floor(options.searchBudget as number))
    : SEARCH_BUDGET;
  const prepared = new Map<string, Statement<[Params]>>();
  const statement = (shape: Shape): Statement<[Params]> => {
    const key = JSON.stringify(shape);
    let found = prepared.get(key);
    if (!found) {
      found = sqlite.prepare<[Params]>(searchSql(shape));
      prepared.set(key, found);
    }
    return found;
  };
  const byIds = sqlite.prepare<[Params], ListingRow>(BY_IDS_SQL);
  const trigrams = sqlite.prepare<[Params], string>(TRIGRAMS_SQL).pluck();

  const stops = [false, true].map((before) => sqlite.prepare<[Params], string>(ftsStopSql(before)).pluck());
  const memos = createTermMemos(sqlite);
  const planner = createFtsPlanner(sqlite, "listings_fts", memos.of("listings_fts"));

  const idOfRowid = sqlite.prepare<[{ rowid: bigint }], string>(ID_OF_ROWID_SQL).pluck();

  /**
   * A term of 3+ characters: the AND of its three rarest trigrams when the
   * rarest ends within the budget below the cursor (FTS5 then walks no more
   * than that); else where those three meet, each read as a stream cut at
   * its budget (the rarest's 5,000 entries, twice that of the others), each
   * candidate checked on its row, and a short page goes on below where the
   * streams were read to.
   */
  function byTrigrams(
    shape: Omit<Shape, "text">,
    base: Params,
    needle: string,
    before: string | undefined,
  ): SearchRows {
    const from = planner.from(before);
    const plan = planner.plan(ftsTrigrams(needle), from, searchBudget);
    const terms = plan.terms.slice(0, MAX_AND);
    if (plan.kind === "all") {
      return throughIndex({ ...shape, text: "fts" }, { ...base, match: ftsAll(terms), budget: searchBudget });
    }
    // A term that fills its page among the rarest trigram's first candidates needs no more: the
    // streams' IN lists are read whole before the first row, the stream alone lazily.
    const quick = throughIndex(
      { ...shape, text: "fts" },
      { ...base, match: plan.driver, budget: Math.min(searchBudget, QUICK) },
    );
    if (quick.length >= (base.limit as number)) return quick;
    // Cut at a tenth first: streams that meet often fill the page there, at a tenth of the reads.
    let found: SearchRows = [];
    for (const cut of new Set([Math.min(searchBudget, FIRST_CUT), searchBudget])) {
      found = meet({ ...shape, text: "meet", streams: terms.length }, base, terms, cut, from);
      if (found.length >= (base.limit as number)) break;
    }
    return found;
  }

  /** A `meet` search, and where a short page goes on: the nearest point where a cut stream stops. */
  const meet = sqlite.transaction(
    (shape: Shape, base: Params, terms: string[], cut: number, from: bigint): SearchRows => {
      const met = meetParams(planner, terms, cut, from);
      // The driver ended within its cut after all (rows went away since the plan): the AND is bounded.
      if (met === undefined)
        return throughIndex({ ...shape, text: "fts" }, { ...base, match: ftsAll(terms), budget: cut });
      const { params, upTo } = met;
      const rows: SearchRows = statement(shape).all({ ...base, ...params } as Params) as ListingRow[];
      if (rows.length < (base.limit as number)) {
        const stoppedAt = idOfRowid.get({ rowid: upTo });
        if (stoppedAt !== undefined) rows.resumeBefore = stoppedAt;
      }
      return rows;
    },
  );

  /** A walk's first `limit` hits, stopping after `budget` rows: a row per entry, flagged. */
  function walk(shape: Shape, params: Params, limit: number, budget: number): Walked {
    const ids: string[] = [];
    let examined = 0;
    for (const row of statement(shape).iterate(params) as IterableIterator<{
      id: string;
      hit: number | null;
    }>) {
      if (row.hit === 1 && ids.push(row.id) >= limit) return { ids };
      // Leaving the loop early closes the statement's cursor (iterate's return()).
      if (++examined >= budget) return { ids, stoppedAt: row.id };
    }
    return { ids }; // the rows ran out: every one was checked
  }

  function fetch({ ids, stoppedAt }: Walked): SearchRows {
    const rows: SearchRows = ids.length === 0 ? [] : byIds.all({ ids: JSON.stringify(ids) });
    if (stoppedAt !== undefined) rows.resumeBefore = stoppedAt;
    return rows;
  }

  /**
   * The first `limit` matches among the index's first `searchBudget`
   * candidates, in SQL (a step into JS per candidate would cost as much as
   * the candidate). A short page then asks for the last candidate examined,
   * in the same read transaction, so both see the same rows.
   */
  const throughIndex = sqlite.transaction((shape: Shape, params: Params): SearchRows => {
    const rows: SearchRows = statement(shape).all(params) as ListingRow[];
    if (rows.length < (params.limit as number)) {
      const stoppedAt = stops[shape.before ? 1 : 0]?.get(params);
      if (stoppedAt !== undefined) rows.resumeBefore = stoppedAt;
    }
    return rows;
  });

  return {
    run: (query, now) => memos.around(() => search(query, now)),
  };

  function search(query: ListingSearch, now: Date): SearchRows {
    const needle = query.text ? foldSearchText(query.text) : "";
    const base = {
      status: query.status,
      category: query.category !== undefined,
      user: query.userId !== undefined,
      before: query.before !== undefined,
    };
    const params: Params = { limit: query.limit, now: now.getTime(), needle };
    if (query.category !== undefined) params.category = query.category;
    if (query.userId !== undefined) params.userId = query.userId;
    if (query.before !== undefined) params.before = query.before;

    if (needle === "") return statement({ ...base, text: "none" }).all(params) as ListingRow[];
    if (query.limit <= 0) return [];
    const viaIndex = (match: string) =>
      throughIndex({ ...base, text: "fts" }, { ...params, match, budget: searchBudget });
    // An author's listings are few: the exact check on each beats any index walk.
    if (base.user) return fetch(walk({ ...base, text: "walk" }, params, query.limit, searchBudget));
    if ([...needle].length >= TRIGRAM) return byTrigrams(base, params, needle, query.before);

    const probe = walk({ ...base, text: "walk" }, params, query.limit, walkBudget);
    if (probe.stoppedAt === undefined) return fetch(probe);
    const terms = trigrams.all(trigramRange(needle));
    return terms.length === 0 ? [] : viaIndex(ftsAny(terms));
  }
}
