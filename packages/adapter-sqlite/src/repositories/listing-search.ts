import { foldSearchText, type ListingSearch } from "@psm/core";
import type { Database, Statement } from "better-sqlite3";
import { ftsAny, ftsCover, TRIGRAM, trigramRange } from "./fts-query.js";
import type { ListingRow } from "./listing-rows.js";
import { BY_IDS_SQL, type Shape, searchSql, TRIGRAMS_SQL } from "./listing-search-sql.js";

type Params = Record<string, string | number>;

/** Options of the search runner. */
export interface SearchOptions {
  /** Rows a short term may examine newest-first before it turns to the index. */
  walkBudget?: number;
}

/** Runs searches with one prepared statement per shape. */
export interface SearchRunner {
  run(query: ListingSearch, now: Date): ListingRow[];
}

/**
 * Creates a runner that prepares each search shape on first use.
 *
 * Terms of 3+ characters go through the FTS5 trigram index. Shorter terms
 * cannot (a trigram index has no 1- or 2-character keys), so they take the
 * cheaper of two bounded ways: first the newest rows of the page's own index,
 * checked with instr(), for at most `walkBudget` rows, which answers common
 * short terms ("ai", "ux") at once; if that does not fill the page, the term is
 * rare, and the trigrams that start with it (from the FTS vocabulary; the
 * indexed text is padded so that every short substring starts one) are ORed
 * through the index, whose work is bounded by the term's hits.
 */
export function createSearchRunner(sqlite: Database, options: SearchOptions = {}): SearchRunner {
  const walkBudget = options.walkBudget ?? 500;
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

  const rows = (shape: Shape, params: Params) => statement(shape).all(params) as ListingRow[];

  /** The newest matches by walking, or undefined when the budget ran out first. */
  function walk(shape: Shape, params: Params, limit: number): string[] | undefined {
    const hits: string[] = [];
    let examined = 0;
    for (const row of statement(shape).iterate(params) as IterableIterator<{
      id: string;
      hit: number | null;
    }>) {
      if (row.hit === 1 && hits.push(row.id) >= limit) return hits;
      if (++examined >= walkBudget) return undefined;
    }
    return hits; // the range ended: every row was checked
  }

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

      if (needle === "") return rows({ ...base, text: "none" }, params);
      // An author's listings are few: the exact check on each beats any index walk.
      if (base.user) return rows({ ...base, text: "instr" }, params);
      if ([...needle].length >= TRIGRAM)
        return rows({ ...base, text: "fts" }, { ...params, match: ftsCover(needle) });

      const found = walk({ ...base, text: "walk" }, params, query.limit);
      if (found) return found.length === 0 ? [] : byIds.all({ ids: JSON.stringify(found) });
      const terms = trigrams.all(trigramRange(needle));
      if (terms.length === 0) return [];
      return rows({ ...base, text: "fts" }, { ...params, match: ftsAny(terms) });
    },
  };
}
