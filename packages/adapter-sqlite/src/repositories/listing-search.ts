import { foldSearchText, type ListingSearch } from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import { createFtsPlanner } from "./fts-plan.js";
import { ftsAll, ftsAny, ftsTrigrams, MAX_AND, TRIGRAM, trigramRange } from "./fts-query.js";
import type { ListingRow } from "./listing-rows.js";
import { BY_IDS_SQL, ftsStopSql, type Shape, searchSql, TRIGRAMS_SQL } from "./listing-search-sql.js";

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
  const planner = createFtsPlanner(sqlite, "listings_fts");

  /**
   * The match of a term of 3+ characters: the AND of its rarest trigrams
   * when the rarest ends within the budget below the cursor, else the rarest
   * alone (each of its entries a candidate counted against the budget). The
   * exact check beside it tests the whole term on each candidate.
   */
  function trigramMatch(needle: string, before: string | undefined): string {
    const plan = planner.plan(ftsTrigrams(needle), planner.from(before), searchBudget);
    return plan.kind === "all" ? ftsAll(plan.terms.slice(0, MAX_AND)) : plan.driver;
  }

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
    run(query, now) {
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
      if ([...needle].length >= TRIGRAM) return viaIndex(trigramMatch(needle, query.before));

      const probe = walk({ ...base, text: "walk" }, params, query.limit, walkBudget);
      if (probe.stoppedAt === undefined) return fetch(probe);
      const terms = trigrams.all(trigramRange(needle));
      return terms.length === 0 ? [] : viaIndex(ftsAny(terms));
    },
  };
}
