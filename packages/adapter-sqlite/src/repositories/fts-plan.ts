import type { Database } from "better-sqlite3";
import { lazy } from "../lazy.js";
import type { TermMemo } from "./fts-term-memo.js";

// FTS5 streams one term's doclist lazily, so a LIMIT bounds it; but an AND of
// terms steps through every child until they meet, past any LIMIT or rowid
// bound: common terms that never meet cost their whole doclists and yield
// nothing to count. An AND is bounded only by its rarest child, so a budgeted
// match first asks which child that is. Why: DESIGN.md "Bounded inside the match".

/**
 * The FTS5 tables a plan reads: trigrams of titles, words of titles and
 * descriptions, of titles alone, and those two by category.
 */
export type FtsTable =
  | "listings_fts"
  | "listings_text"
  | "listings_title"
  | "listings_words_cat"
  | "listings_title_cat";

/**
 * How a budgeted match runs: `all` when the AND of the terms is bounded (its
 * rarest term has fewer than the budget's entries below the cursor; `terms`
 * rarest first), `driver` when every term has more: then the driver streams
 * alone, each of its entries a row examined and counted, the other terms
 * checked per row.
 */
export type FtsPlan = { kind: "all"; terms: string[] } | { kind: "driver"; driver: string; terms: string[] };

/** Entries of each term read to rank terms by how sparse they are. */
const PROBE = 64;
/** Terms ranked at most; the others are checked per row. */
const MAX_PROBED = 16;
/** The lowest FTS rowid bound: below every row. */
const BELOW_ALL = -9223372036854775807n;
/** Above every FTS rowid (they are -seq, negative). */
const ABOVE_ALL = 0n;
/**
 * The rowids of one category in the indexes by category: key * 2^59 - seq,
 * for seq in (0, 2^59) (migrations/0020_words-by-category.sql).
 */
export const CATEGORY_SPAN = 1n << 59n;

/** The first cut of `search`'s streams, before the whole budget: streams that meet often fill a page there. */
export const FIRST_CUT = 500;

/**
 * Index entries a meet of cut streams reads at most, per candidate of its
 * budget: what `search`'s three streams read (the driver's `budget`, twice
 * that of each other), whatever the number of streams.
 */
const ENTRIES_PER_CANDIDATE = 5;

/**
 * The driver's cut of a meet of `streams` streams for `budget` candidates:
 * the budget, or less when more streams would read more than
 * ENTRIES_PER_CANDIDATE × budget entries (each other stream is cut at twice the driver's).
 */
export function meetCut(budget: number, streams: number): number {
  const within = Math.floor((ENTRIES_PER_CANDIDATE * budget) / Math.max(1, 2 * streams - 1));
  return Math.max(1, Math.min(budget, within));
}

/**
 * Where cut streams meet, on `table` (alias `c` for the candidates, `r` their
 * FTS rowid): the first stream's entries (@m0, its first @b0 after @from) that
 * every other stream (@m1, @m2, …) holds among its own first @b1, up to
 * @upTo, the nearest point where a cut stream stops. Each IN list is built
 * once, and no stream is read past @upTo or its cut, whether they meet or not.
 */
export function meetSql(table: FtsTable, streams: number): { from: string; where: string[] } {
  const stream = (i: number, limit: string) =>
    `SELECT t.rowid AS r FROM ${table} AS t WHERE t.${table} MATCH @m${i} AND t.rowid > @from
      AND t.rowid <= @upTo ORDER BY t.rowid LIMIT +${limit}`;
  const others = Array.from({ length: streams - 1 }, (_, i) => `c.r IN (${stream(i + 1, "@b1")})`);
  return { from: `(${stream(0, "@b0")}) AS c`, where: others };
}

/**
 * The bound parameters of a meet of `terms` (its driver first, cut at `cut`
 * entries; the others at twice that) below `from`, and `upTo`, where the
 * nearest cut stream stops. None when the driver ends within its cut: the
 * AND of the terms then steps no further than the driver's entries.
 */
export function meetParams(
  planner: FtsPlanner,
  terms: readonly string[],
  cut: number,
  from: bigint,
): { params: Record<string, string | number | bigint>; upTo: bigint } | undefined {
  const params: Record<string, string | number | bigint> = { from, b0: cut, b1: 2 * cut };
  for (const [i, term] of terms.entries()) params[`m${i}`] = term;
  let upTo = planner.nth(terms[0] ?? "", from, cut);
  if (upTo === undefined) return undefined;
  // The others densest first, each read no further than the nearest stop so
  // far: a dense stream stops early, and the sparser ones are read only up to it.
  for (const term of terms.slice(1).reverse()) {
    const stop = planner.nth(term, from, 2 * cut, upTo);
    if (stop !== undefined && stop < upTo) upTo = stop;
  }
  params.upTo = upTo;
  return { params, upTo };
}

/** A meet's first cut for a page of `want` rows: a few pages' worth of the driver, at least the probe. */
export function firstCut(want: number, full: number): number {
  return Math.min(full, Math.max(PROBE, 8 * want));
}

/**
 * The next cut after `cut` found `hits` of the `want` a page needs: where the
 * rate found would fill the page, with a margin, at least twice `cut` (so a
 * meet tries a few cuts at most), and the whole budget's `full` when it found none.
 */
export function nextCut(cut: number, hits: number, want: number, full: number): number {
  if (hits === 0) return full;
  return Math.min(full, Math.max(2 * cut, Math.ceil((1.25 * cut * want) / hits)));
}

/** Plans budgeted matches on one FTS5 table. */
export interface FtsPlanner {
  /** The exclusive lower FTS rowid bound of the rows below cursor id `before` (all rows without one). */
  from(before: string | undefined): bigint;
  /** `terms` sparsest first below `from` (the first 16 distinct ones, spread over them). */
  rank(terms: readonly string[], from: bigint): string[];
  /** The plan of an AND of `terms` (FTS5 queries of one term each) below `from`, for `budget` rows. */
  plan(terms: readonly string[], from: bigint, budget: number): FtsPlan;
  /**
   * The FTS rowid of the `count`-th entry of `term` below `from` (and at or
   * above `upTo`, when given): where a stream cut at `count` entries stops;
   * none when it ends first.
   */
  nth(term: string, from: bigint, count: number, upTo?: bigint): bigint | undefined;
  /**
   * Whether any term of the index begins with `prefix` (a stem): a query whose
   * last word is a prefix no term begins matches nothing, however common the
   * shorter prefix the index keeps, which would otherwise be walked row by row.
   */
  beginsAny(prefix: string): boolean;
  /** Whether `term` (a stem) is a term of the index. */
  holds(term: string): boolean;
}

/** `count` of the items spread evenly over `items`, first and last included. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from(
    { length: count },
    (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))] as T,
  );
}

/** Answers nothing is kept of: each read again. */
const NO_MEMO: TermMemo = { get: (_key, read) => read() };

/**
 * A planner on `table`, whose rowids are -seq, or on one category's range of
 * an index by category when `top` (key * 2^59) is given: every read stays
 * within (top - CATEGORY_SPAN, top], and `from` answers in that range.
 */
export function createFtsPlanner(
  sqlite: Database,
  table: FtsTable,
  memo: TermMemo = NO_MEMO,
  top: bigint = ABOVE_ALL,
): FtsPlanner {
  const bottom = top === ABOVE_ALL ? BELOW_ALL : top - CATEGORY_SPAN;
  const head = sqlite
    .prepare<[Record<string, string | number | bigint>], { n: bigint; last: bigint | null }>(
      `SELECT count(*) AS n, max(r) AS last FROM (SELECT rowid AS r FROM ${table}
        WHERE ${table} MATCH @term AND rowid > @from AND rowid <= @top ORDER BY rowid LIMIT +@probe)`,
    )
    .safeIntegers(true);
  const nth = sqlite
    .prepare<[Record<string, string | number | bigint>], bigint>(
      `SELECT rowid FROM ${table} WHERE ${table} MATCH @term AND rowid > @from AND rowid <= @upTo
        ORDER BY rowid LIMIT 1 OFFSET +@offset`,
    )
    .pluck()
    .safeIntegers(true);
  // The FTS rowid is top - seq, and seq follows id (listing-order.ts):
  // id < before <=> seq < seq(first id >= before) <=> rowid > top - that seq.
  const below = sqlite
    .prepare<[string], bigint>("SELECT seq FROM listings WHERE id >= ? ORDER BY id LIMIT 1")
    .pluck()
    .safeIntegers(true);
  const fromSeq = (seq: bigint | undefined) => (seq === undefined || top - seq < bottom ? bottom : top - seq);

  // fts5vocab's `instance` rows come one entry at a time: the first term at or
  // after the prefix costs one seek, where a `row` table counts its whole
  // doclist. In the temp schema: a view of the index, not part of the file.
  const firstTermFrom = lazy(() => {
    sqlite.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_terms USING fts5vocab(main, ${table}, instance)`,
    );
    return sqlite
      .prepare<[string], string>(`SELECT term FROM temp.${table}_terms WHERE term >= ? LIMIT 1`)
      .pluck();
  });

  /** Terms sparsest first: those that end within the probe by entries left, then by how far their probe reached. */
  function ranked(terms: readonly string[], from: bigint): string[] {
    if (terms.length === 1) return [...terms];
    const probed = spread([...new Set(terms)], MAX_PROBED).map((term) => {
      const { n, last } = memo.get(`h\0${term}\0${from}\0${top}`, () =>
        head.get({ term, from, top, probe: PROBE }),
      ) as {
        n: bigint;
        last: bigint | null;
      };
      return { term, left: n < BigInt(PROBE) ? Number(n) : undefined, reach: last ?? from };
    });
    probed.sort((a, b) => {
      if (a.left !== undefined || b.left !== undefined) return (a.left ?? PROBE) - (b.left ?? PROBE);
      return a.reach > b.reach ? -1 : a.reach < b.reach ? 1 : 0;
    });
    return probed.map((entry) => entry.term);
  }

  // The count-th entry at or below upTo is the count-th of all when it lies there, and none
  // otherwise: one answer per term and count serves every upTo, which differs with each pair of
  // terms a meet cuts, and would fill the memo with answers asked for once.
  const nthOf = (term: string, from: bigint, count: number, upTo = top): bigint | undefined => {
    const found = memo.get(`n\0${term}\0${from}\0${count}`, () =>
      nth.get({ term, from, upTo: top, offset: Math.max(0, count - 1) }),
    );
    return found !== undefined && found <= upTo ? found : undefined;
  };

  return {
    from: (before) => fromSeq(before === undefined ? undefined : below.get(before)),
    plan(terms, from, budget) {
      const order = ranked(terms, from);
      const rarest = order[0] ?? "";
      // Its budget-th entry below the cursor: none, and the AND ends within the budget.
      const far = nthOf(rarest, from, budget);
      return far === undefined
        ? { kind: "all", terms: order }
        : { kind: "driver", driver: rarest, terms: order };
    },
    rank: ranked,
    nth: nthOf,
    // Terms are in byte order: the first at or after the prefix begins with it if any does.
    beginsAny: (prefix) =>
      memo.get(`b\0${prefix}`, () => firstTermFrom().get(prefix)?.startsWith(prefix) === true),
    holds: (term) => memo.get(`h\0${term}`, () => firstTermFrom().get(term) === term),
  };
}
