import type { FacetQuery, ListingFind, SortKey } from "@psm/core";
import { foldSearchText, lastWordOf } from "@psm/core";
import { and, type SQL, sql } from "drizzle-orm";
import { pastExpiryAt, unexpiredAt } from "./listing-sql.js";

// The SQL of listings.find and countByCategory: full text through the stored
// `search_vector` and its GIN index (migrations/0012_fulltext.sql), price
// sorts through (price, id). DESIGN.md "Full-text search".

const SV = sql.raw('"listings"."search_vector"');
const ID = sql.raw('"listings"."id"');
const PRICE = sql.raw('"listings"."price"');

const lexeme = (word: string, marks: string) =>
  // The words are letters and digits only (core's searchWords): nothing to escape inside the quotes.
  `'${word.replaceAll("'", "''")}'${marks === "" ? "" : `:${marks}`}`;

/**
 * A to_tsquery text of psm_search: every word, the last also as a prefix and by the words it
 * completes (core's LastWord `completed`, stemmed here as PostgreSQL stems the text); with
 * `weight`, only lexemes of that weight.
 */
export function tsQueryText(words: readonly string[], weight = ""): string {
  const last = lastWordOf(words.at(-1) ?? "");
  const ending = [lexeme(last.word, `*${weight}`), ...last.completed.map((word) => lexeme(word, weight))];
  const tail = ending.length === 1 ? ending[0] : `(${ending.join(" | ")})`;
  return [...words.slice(0, -1).map((word) => lexeme(word, weight)), tail].join(" & ");
}

/**
 * The tsquery of `words` (tsQueryText), or the other words with the last as typed, a prefix of
 * lexemes unstemmed: where stemming changes the word (pay is pai; psy is psi in Porter2 alone), the
 * words it begins keep its letters. Asked only then: on every search, bench:http's 12,000 distinct
 * `q` searches took 2.6–3.4 ms each through the port, against 2.1–2.5 ms without it.
 */
export function wordsQuery(words: readonly string[], weight = ""): SQL {
  const stemmed = sql`to_tsquery('psm_search', ${tsQueryText(words, weight)})`;
  const last = lastWordOf(words.at(-1) ?? "");
  if (last.prefixes.length === 1 && !last.word.endsWith("y")) return stemmed;
  const typed = sql`to_tsquery('simple', ${lexeme(last.word, `*${weight}`)})`;
  if (words.length === 1) return sql`(${stemmed} || ${typed})`;
  const whole = words.slice(0, -1).map((word) => lexeme(word, weight));
  const others = sql`to_tsquery('psm_search', ${whole.join(" & ")})`;
  return sql`(${stemmed} || (${others} && ${typed}))`;
}

/** `search_vector` holds `word` (as a last word with `last`): one word of a query, for estimates. */
export function matchesWord(word: string, last: boolean): SQL {
  return last
    ? sql`${SV} @@ ${wordsQuery([word])}`
    : sql`${SV} @@ to_tsquery('psm_search', ${lexeme(word, "")})`;
}

/**
 * The title's own tsvector: the expression of listings_title_vector_idx, written the same. Not a
 * stored column: a walk checks the title's words as `search_vector`'s of weight A (inTitle).
 */
const TITLE_VECTOR = sql.raw(`to_tsvector('psm_search'::regconfig, "listings"."title")`);

/** `search_vector` (title and description) holds the query, or with `titleOnly` the title alone does (through its GIN index). */
export function matches(words: readonly string[], titleOnly = false): SQL {
  return sql`${titleOnly ? TITLE_VECTOR : SV} @@ ${wordsQuery(words)}`;
}

/**
 * The title holds the query, read from `search_vector`'s title words (weight A): what
 * `matches(words, true)` answers, without computing the title's words (10 µs a row). No index
 * answers it: a walk's check, not a GIN search.
 */
export function inTitle(words: readonly string[]): SQL {
  return sql`${SV} @@ ${wordsQuery(words, "A")}`;
}

/** The status range, written as a literal so the partial index on active listings applies. */
function storedStatus(status: ListingFind["status"]): SQL | undefined {
  if (status === "all") return undefined;
  const value = sql.raw(status === "paused" ? "'paused'" : "'active'");
  return sql`"listings"."status" between ${value} and ${value}`;
}

const equal = (column: string, value: string) => sql`${sql.raw(`"listings"."${column}"`)} = ${value}`;
// `BETWEEN v AND v` keeps the column in a walk's ORDER BY, where PostgreSQL drops one pinned by `=`
// (listing-search-shape.ts `pinned`).
const between = (column: string, value: string) =>
  sql`${sql.raw(`"listings"."${column}"`)} between ${value} and ${value}`;

/** Every condition of the query except the words and the cursor. */
export function filters(query: FacetQuery & { category?: ListingFind["category"] }, now: Date): SQL[] {
  const conditions: (SQL | undefined)[] = [
    storedStatus(query.status),
    query.status === "active" ? unexpiredAt(now) : query.status === "expired" ? pastExpiryAt(now) : undefined,
    query.category === undefined ? undefined : equal("category", query.category),
    query.userId === undefined ? undefined : equal("user_id", query.userId),
    query.text === undefined
      ? undefined
      : sql`strpos("listings"."title_folded", ${foldSearchText(query.text)}) > 0`,
    query.minPrice === undefined ? undefined : sql`${PRICE} >= ${query.minPrice}`,
    query.maxPrice === undefined ? undefined : sql`${PRICE} <= ${query.maxPrice}`,
  ];
  return conditions.filter((condition): condition is SQL => condition !== undefined);
}

/**
 * The conditions an index range answers: status, category, author; category and author as
 * `ranges` (`BETWEEN v AND v`) for a walk, or as equalities.
 */
export function pinnedFilters(
  query: Pick<ListingFind, "status" | "category" | "userId">,
  as: "equalities" | "ranges" = "equalities",
): SQL[] {
  const pin = as === "ranges" ? between : equal;
  const conditions: (SQL | undefined)[] = [
    storedStatus(query.status),
    query.category === undefined ? undefined : pin("category", query.category),
    query.userId === undefined ? undefined : pin("user_id", query.userId),
  ];
  return conditions.filter((condition): condition is SQL => condition !== undefined);
}

/** One ordered part of a sort: a relevance rank, or the priced or unpriced listings of a price sort. */
export interface Part {
  rank: number;
  /** Its condition on the sort's index (price present or absent), if any. */
  range: SQL | undefined;
  /** Its full-text condition (the rank's match) as a GIN index answers it, if any. */
  match: SQL | undefined;
  /** The same condition as a walk checks it cheapest: on stored columns alone. */
  probe: SQL | undefined;
  /** Its ORDER BY, which an index delivers. */
  order: SQL;
  /** Rows strictly after `key` in this part. */
  after(key: SortKey): SQL;
  /** Whether `key` lies in this part (else in an earlier one, or a later one: see `passed`). */
  holds(key: SortKey): boolean;
  /** Whether `key` lies in a later part: this one is done. */
  passed(key: SortKey): boolean;
}

const lessId = (key: SortKey) => sql`${ID} < ${key.id}`;
const moreId = (key: SortKey) => sql`${ID} > ${key.id}`;

/** The parts of a query's sort, in order. */
export function partsOf(query: ListingFind): Part[] {
  const words = query.words ?? [];
  // Without words every listing ranks alike: relevance is newest first.
  const sort = query.sort === "relevance" && words.length === 0 ? "newest" : query.sort;
  switch (sort) {
    case "newest":
      return [
        {
          rank: 0,
          range: undefined,
          match: words.length > 0 ? matches(words) : undefined,
          probe: words.length > 0 ? matches(words) : undefined,
          order: sql`${ID} desc`,
          after: lessId,
          holds: () => true,
          passed: () => false,
        },
      ];
    case "relevance":
      return [0, 1].map((rank) => ({
        rank,
        range: undefined,
        match: rank === 0 ? matches(words, true) : and(matches(words), sql`not ${inTitle(words)}`),
        probe: rank === 0 ? inTitle(words) : and(matches(words), sql`not ${inTitle(words)}`),
        order: sql`${ID} desc`,
        after: lessId,
        holds: (key) => key.rank === rank,
        passed: (key) => key.rank > rank,
      }));
    case "price_asc":
    case "price_desc": {
      const desc = sort === "price_desc";
      const dir = sql.raw(desc ? "desc" : "asc");
      const match = words.length > 0 ? matches(words) : undefined;
      const priced: Part = {
        rank: 0,
        range: sql`${PRICE} is not null`,
        match,
        probe: match,
        order: sql`${PRICE} ${dir}, ${ID} ${dir}`,
        after: (key) =>
          desc
            ? sql`(${PRICE}, ${ID}) < (${key.price}, ${key.id})`
            : sql`(${PRICE}, ${ID}) > (${key.price}, ${key.id})`,
        holds: (key) => key.price !== null,
        passed: (key) => key.price === null,
      };
      const unpriced: Part = {
        rank: 0,
        range: sql`${PRICE} is null`,
        match,
        probe: match,
        order: sql`${ID} ${dir}`,
        after: desc ? lessId : moreId,
        holds: (key) => key.price === null,
        passed: () => false,
      };
      // Price bounds leave out listings without a price.
      return query.minPrice === undefined && query.maxPrice === undefined ? [priced, unpriced] : [priced];
    }
  }
}
