import { foldSearchText, type ListingFind, type ListingStatusFilter } from "@psm/core";
import { meetSql } from "./fts-plan.js";

/**
 * The word indexes: titles and descriptions (any match, rank 1), titles alone
 * (rank 0; 0018_title-index.sql), and the same two by category
 * (0020_words-by-category.sql: FTS rowid key * 2^59 - seq).
 */
export type WordTable = "listings_text" | "listings_title" | CategoryTable;
export type CategoryTable = "listings_words_cat" | "listings_title_cat";

const byCategory = (table: WordTable) => table === "listings_words_cat" || table === "listings_title_cat";

/** How an index's FTS rowid `c.r` finds its listing: -seq, or @top - seq by category. */
const seqOf = (table: WordTable) => (byCategory(table) ? "@top - c.r" : "-c.r");

// The SQL of listings.find and countByCategory. Every statement yields one row
// per entry it examines, in the sort's order, `hit` carrying every condition
// the index does not: the runner counts each row against its budget, so the
// work is bounded however few rows match (DESIGN.md "Full-text search").

/** What decides the SQL text of a find's walk; each shape is prepared once. */
export interface FindShape {
  status: ListingStatusFilter;
  category: boolean;
  user: boolean;
  text: boolean;
  minPrice: boolean;
  maxPrice: boolean;
  /**
   * Whether each row brings its title and description, for the words to be
   * checked in JS (core's relevanceRank): where no FTS query answers them
   * exactly (see ftsQuery).
   */
  verify: boolean;
}

/** The bound parameters of a find's statements. */
export type FindParams = Record<string, string | number | bigint | null>;

/** The parameters of a query's filters. */
export function findParams(query: Omit<ListingFind, "sort" | "limit">, now: Date): FindParams {
  const params: FindParams = { now: now.getTime() };
  if (query.category !== undefined) params.category = query.category;
  if (query.userId !== undefined) params.userId = query.userId;
  if (query.text !== undefined) params.needle = foldSearchText(query.text);
  if (query.minPrice !== undefined) params.minPrice = query.minPrice;
  if (query.maxPrice !== undefined) params.maxPrice = query.maxPrice;
  return params;
}

/** The shape of a query's filters. */
export function findShape(query: Omit<ListingFind, "sort" | "limit">, verify: boolean): FindShape {
  return {
    status: query.status,
    category: query.category !== undefined,
    user: query.userId !== undefined,
    text: query.text !== undefined,
    minPrice: query.minPrice !== undefined,
    maxPrice: query.maxPrice !== undefined,
    verify,
  };
}

const STORED: Record<ListingStatusFilter, string | undefined> = {
  active: "l.status = 'active'",
  expired: "l.status = 'active'",
  paused: "l.status = 'paused'",
  all: undefined,
};
const EXPIRY: Record<ListingStatusFilter, string | undefined> = {
  active: "(l.expires_at IS NULL OR l.expires_at > @now)",
  expired: "l.expires_at <= @now",
  paused: undefined,
  all: undefined,
};

const defined = (items: (string | undefined)[]) => items.filter((item): item is string => item !== undefined);

/** Conditions every row must meet, besides those an index range answers. */
function residual(shape: FindShape, pinned: { category: boolean; status: boolean }): string {
  const conditions = defined([
    pinned.status ? undefined : STORED[shape.status],
    EXPIRY[shape.status],
    shape.category && !pinned.category ? "l.category = +@category" : undefined,
    shape.user ? "l.user_id = +@userId" : undefined,
    shape.text ? "instr(l.title_folded, @needle) > 0" : undefined,
    shape.minPrice ? "l.price >= @minPrice" : undefined,
    shape.maxPrice ? "l.price <= @maxPrice" : undefined,
  ]);
  return conditions.length === 0 ? "1" : conditions.join(" AND ");
}

/** Each examined row: its id, price and category, whether it is a hit, and its text when verified in JS. */
const ROW = (hit: string, verify: boolean) =>
  `l.id AS id, l.price AS price, l.category AS category, (${hit}) AS hit${verify ? ", l.title AS title, l.description AS description" : ""}`;

/**
 * The FTS index's hits for @match, newest first (ascending FTS rowid = -seq),
 * after @afterId when `after`: id < @afterId <=> FTS rowid > -seq(first id >= @afterId).
 */
export function textStreamSql(
  shape: FindShape,
  after: boolean,
  sure = false,
  table: WordTable = "listings_text",
): string {
  const where = [`t.${table} MATCH @match`];
  // By category: the range of the category (from @from, at or below @top), cursor included in @from.
  if (byCategory(table)) where.push("t.rowid > @from", "t.rowid <= @top");
  else if (after) {
    where.push(
      "t.rowid > -coalesce((SELECT seq FROM listings WHERE id >= @afterId ORDER BY id LIMIT 1), 9223372036854775807)",
    );
  }
  return `SELECT ${ROW(residual(shape, { category: false, status: false }), shape.verify)}${sure ? SURE : ""}
    FROM (SELECT t.rowid AS r FROM ${table} AS t WHERE ${where.join(" AND ")} ORDER BY t.rowid) AS c
    CROSS JOIN listings AS l ON l.seq = ${seqOf(table)} ORDER BY c.r`;
}

/**
 * `sure`: whether the row is among the first @sureCut entries of @sure (after
 * @from), the last word as a whole stem: a row that holds it needs no check
 * in JS for a last word longer than the prefix index (lastWordTerm). A row
 * past the cut is only checked, so the cut bounds the list, never the answer.
 */
const SURE = `, (c.r IN (SELECT t.rowid FROM listings_text AS t WHERE t.listings_text MATCH @sure AND t.rowid > @from
    ORDER BY t.rowid LIMIT +@sureCut)) AS sure`;

/**
 * The rows where the cut streams of `streams` words meet (fts-plan.ts
 * meetSql, @from to @upTo), newest first: a row that lacks a word is never read.
 * `hitsOnly`: rows that fail the filters are dropped in SQL (the cut streams
 * bound the read, so none needs to reach the runner to be counted).
 */
export function textMeetSql(
  shape: FindShape,
  streams: number,
  sure = false,
  table: WordTable = "listings_text",
  hitsOnly = false,
): string {
  const meet = meetSql(table, streams);
  const hit = residual(shape, { category: false, status: false });
  const where = hitsOnly ? [...meet.where, `(${hit})`] : meet.where;
  return `SELECT ${ROW(hit, shape.verify)}${sure ? SURE : ""}
    FROM ${meet.from} CROSS JOIN listings AS l ON l.seq = ${seqOf(table)}
    ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY c.r`;
}

/**
 * The rows of the newest-first index of the shape's status (and category),
 * or of its author (few rows, whatever their status), after @afterId.
 */
export function newestWalkSql(shape: FindShape, after: boolean): string {
  if (shape.user) {
    const range = ["l.user_id = +@userId", ...(after ? ["l.id < @afterId"] : [])];
    return `SELECT ${ROW(residual(shape, { category: false, status: false }), shape.verify)}
      FROM listings AS l INDEXED BY listings_user_id_id_idx WHERE ${range.join(" AND ")} ORDER BY l.id DESC`;
  }
  const range = defined([
    shape.category && STORED[shape.status] ? "l.category = +@category" : undefined,
    STORED[shape.status],
    after ? "l.id < @afterId" : undefined,
  ]);
  const pinned = { category: shape.category && STORED[shape.status] !== undefined, status: true };
  return `SELECT ${ROW(residual(shape, pinned), shape.verify)} FROM listings AS l
    ${range.length > 0 ? `WHERE ${range.join(" AND ")}` : ""} ORDER BY l.id DESC`;
}

/** Which part of a price sort: listings with a price, then those without. */
export type PriceSegment = "priced" | "unpriced";

/** A price sort's segment: its select list, its range (and residual conditions), order, and index if forced. */
function priceParts(shape: FindShape, descending: boolean, segment: PriceSegment, after: boolean) {
  const dir = descending ? "DESC" : "ASC";
  const keyset = [
    after && segment === "priced"
      ? `(l.price, l.id) ${descending ? "<" : ">"} (@afterPrice, @afterId)`
      : undefined,
    after && segment === "unpriced" ? `l.id ${descending ? "<" : ">"} @afterId` : undefined,
  ];
  const order = segment === "priced" ? `l.price ${dir}, l.id ${dir}` : `l.id ${dir}`;
  const priced = segment === "priced" ? "l.price IS NOT NULL" : "l.price IS NULL";
  if (shape.user) {
    // An author's listings are few (their slots): read by the author's index and sorted.
    const where = defined(["l.user_id = +@userId", priced, ...keyset]);
    const columns = ROW(residual(shape, { category: false, status: false }), shape.verify);
    return { columns, where, order, index: "INDEXED BY listings_user_id_id_idx" };
  }
  const pinnedCategory = shape.category && STORED[shape.status] !== undefined;
  const where = defined([
    pinnedCategory ? "l.category = +@category" : undefined,
    STORED[shape.status],
    priced,
    segment === "priced" && shape.minPrice ? "l.price >= @minPrice" : undefined,
    segment === "priced" && shape.maxPrice ? "l.price <= @maxPrice" : undefined,
    ...keyset,
  ]);
  const hit = residual(
    { ...shape, minPrice: false, maxPrice: false },
    { category: pinnedCategory, status: true },
  );
  return { columns: ROW(hit, shape.verify), where, order, index: "" };
}

/**
 * A price sort's segment in its order, walking (status, price, id) or
 * (category, status, price, id): price ascending with id ascending, or both
 * descending. The price bounds are part of the range.
 */
export function priceWalkSql(shape: FindShape, descending: boolean, segment: PriceSegment, after: boolean) {
  const { columns, where, order, index } = priceParts(shape, descending, segment, after);
  return `SELECT ${columns} FROM listings AS l ${index} WHERE ${where.join(" AND ")} ORDER BY ${order}`;
}

/**
 * A small match set in a price sort's order: the FTS index's first @budget
 * hits (all of them: the caller checked there are no more), sorted.
 */
export function pricedMatchesSql(
  shape: FindShape,
  descending: boolean,
  segment: PriceSegment,
  after: boolean,
) {
  const { columns, where, order } = priceParts(shape, descending, segment, after);
  return `SELECT ${columns} FROM (SELECT t.rowid AS r FROM listings_text AS t WHERE t.listings_text MATCH @match
      ORDER BY t.rowid LIMIT +@budget) AS c
    CROSS JOIN listings AS l ON l.seq = -c.r WHERE ${where.join(" AND ")} ORDER BY ${order}`;
}

/** Per category: hits among the first @budget rows of `stream` (a walk's SQL), and rows examined. */
export function facetSql(stream: string): string {
  return `SELECT category, coalesce(sum(hit), 0) AS hits, count(*) AS examined FROM (${stream} LIMIT +@budget)
    GROUP BY category`;
}
