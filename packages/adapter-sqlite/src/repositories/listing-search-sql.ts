import type { ListingStatusFilter, StoredListingStatus } from "@psm/core";
import { meetSql } from "./fts-plan.js";
import { LISTING_COLUMNS } from "./listing-rows.js";

/**
 * How the title filter runs: none (a page); `walk` (the shape's index newest
 * first, a row per entry with a `hit` flag, the caller stopping after a
 * budget); `fts` (the trigram index's first @budget candidates, then the
 * exact check); `meet` (where up to three trigram streams meet, each cut at
 * its budget, then the exact check).
 */
export type TextMode = "none" | "fts" | "meet" | "walk";

/** What decides the SQL text of a search; each shape is prepared once. */
export interface Shape {
  status: ListingStatusFilter;
  category: boolean;
  user: boolean;
  before: boolean;
  text: TextMode;
  /** Streams a `meet` search intersects (1 to 3). */
  streams?: number;
}

const STORED: Record<ListingStatusFilter, StoredListingStatus | undefined> = {
  active: "active",
  expired: "active",
  paused: "paused",
  all: undefined,
};
const EXPIRY: Record<ListingStatusFilter, string | undefined> = {
  active: "(l.expires_at IS NULL OR l.expires_at > @now)",
  expired: "l.expires_at <= @now",
  paused: undefined,
  all: undefined,
};
const EXACT = "instr(l.title_folded, @needle) > 0";

/**
 * The conditions of a shape, split into those the driving index answers as a
 * range (`range`) and those checked on each row it yields (`residual`).
 */
function predicates(shape: Shape, stored = STORED[shape.status]): { range: string[]; residual: string[] } {
  const status = stored ? `l.status = '${stored}'` : undefined;
  const expiry = EXPIRY[shape.status];
  const category = shape.category ? "l.category = +@category" : undefined;
  const range: (string | undefined)[] = [];
  const residual: (string | undefined)[] = [];
  if (shape.user) {
    range.push("l.user_id = +@userId"); // an author's rows are few
    residual.push(status, expiry, category);
  } else {
    range.push(category, status);
    residual.push(expiry);
  }
  if (shape.before) range.push("l.id < @before");
  const defined = (items: (string | undefined)[]) =>
    items.filter((item): item is string => item !== undefined);
  return { range: defined(range), residual: defined(residual) };
}

// The index that yields each shape's rows already in id order. INDEXED BY
// makes the choice explicit (a shape that cannot use it fails to prepare, in
// tests) instead of leaving it to a planner without statistics.
function drivingIndex(shape: Shape): string {
  if (shape.user) return "listings_user_id_id_idx";
  if (shape.category) return "listings_category_status_id_idx";
  return shape.status === "all" ? "listings_id_unique" : "listings_status_id_idx";
}

/** SELECT `columns` (given the per-row conditions) over the driving index, id descending. */
function scan(shape: Shape, columns: (residual: string[]) => string, limit: string): string {
  const arm = (stored?: StoredListingStatus) => {
    const { range, residual } = predicates(shape, stored);
    const where = shape.text === "walk" ? range : [...range, ...residual];
    return `SELECT ${columns(residual)} FROM listings AS l INDEXED BY ${drivingIndex(shape)}
      ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}`;
  };
  if (shape.category && shape.status === "all" && !shape.user) {
    // (category, status, id) holds each stored status in id order: merge the
    // two ranges instead of sorting the whole category.
    return `${arm("active")} UNION ALL ${arm("paused")} ORDER BY 1 DESC ${limit}`;
  }
  return `${arm()} ORDER BY l.id DESC ${limit}`;
}

/**
 * The SQL of one search shape (exported for the query-plan tests). A walk
 * yields one row per entry examined, `hit` carrying every condition, so that
 * the caller's budget of rows bounds the work however few entries match.
 */
export function searchSql(shape: Shape): string {
  if (shape.text === "walk") {
    return scan(shape, (residual) => `l.id AS id, (${[...residual, EXACT].join(" AND ")}) AS hit`, "");
  }
  if (shape.text === "meet") {
    // Where up to three trigram streams meet, each cut (fts-plan.ts meetSql),
    // then the shape's filters and the exact check on each candidate that passes.
    const { range, residual } = predicates({ ...shape, before: false });
    const meet = meetSql("listings_fts", shape.streams ?? 1);
    return `SELECT ${LISTING_COLUMNS} FROM ${meet.from} CROSS JOIN listings AS l ON l.seq = -c.r
      WHERE ${[...meet.where, ...range, ...residual, EXACT].join(" AND ")} ORDER BY c.r LIMIT +@limit`;
  }
  if (shape.text !== "fts") return scan(shape, () => LISTING_COLUMNS, "LIMIT +@limit");
  // The first @budget candidates of the index, then the shape's filters and
  // the exact check on each: a candidate they drop costs as much as one they
  // keep, so it counts against the budget too. The candidates are a
  // co-routine that the outer LIMIT stops as soon as the page is full, in
  // their own order (no sort step: query-plans.test.ts).
  const { range, residual } = predicates({ ...shape, before: false });
  return `SELECT ${LISTING_COLUMNS} FROM (${ftsCandidates(shape.before, "LIMIT +@budget")}) AS c
    CROSS JOIN listings AS l ON l.seq = -c.r
    WHERE ${[...range, ...residual, EXACT].join(" AND ")} ORDER BY c.r LIMIT +@limit`;
}

/**
 * The FTS index's candidates (`r`, the FTS rowid), newest first. FTS5 streams
 * hits in ascending rowid order, and the FTS rowid is -seq with seq in id
 * order (listing-order.ts): newest first with no sort step. The id cursor
 * becomes a rowid bound:
 * id < before <=> seq < seq(first id >= before) <=> f.rowid > -that seq.
 */
function ftsCandidates(before: boolean, limit: string): string {
  const where = ["f.listings_fts MATCH @match"];
  if (before) {
    where.push(
      "f.rowid > -coalesce((SELECT seq FROM listings WHERE id >= @before ORDER BY id LIMIT 1), 9223372036854775807)",
    );
  }
  return `SELECT f.rowid AS r FROM listings_fts AS f WHERE ${where.join(" AND ")} ORDER BY f.rowid ${limit}`;
}

/**
 * The id of the last candidate a budgeted FTS search examined (its
 * @budget-th), none when the index had no more: where a short page goes on.
 */
export function ftsStopSql(before: boolean): string {
  return `SELECT l.id FROM listings AS l
    WHERE l.seq = -(${ftsCandidates(before, "LIMIT 1 OFFSET +@budget - 1")})`;
}

/** The id of the listing of an FTS rowid. */
export const ID_OF_ROWID_SQL = "SELECT id FROM listings WHERE seq = -@rowid";

/** Listings by a JSON array of ids, newest first. */
export const BY_IDS_SQL = `SELECT ${LISTING_COLUMNS} FROM listings AS l
  WHERE l.id IN (SELECT value FROM json_each(@ids)) ORDER BY l.id DESC`;

/** The indexed trigrams in a range (fts5vocab reads only the doclists of those terms). */
export const TRIGRAMS_SQL = "SELECT term FROM listings_fts_vocab WHERE term >= @low AND term <= @high";
