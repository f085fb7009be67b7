import { isUuid, MarketplaceError, type PageQuery } from "@psm/core";
import { eq, lt, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Transaction } from "../connection.js";
import { users } from "../schema.js";

/**
 * `column < before` for a newest-first page; a cursor that cannot be an id is
 * refused as input rather than sent to PostgreSQL, which would fail on it.
 */
export function idBefore(column: PgColumn, page: PageQuery): SQL | undefined {
  const before = cursorOf(page);
  return before === undefined ? undefined : lt(column, before);
}

/** The cursor of a newest-first page, checked as idBefore checks it; undefined without one. */
export function cursorOf(page: PageQuery): string | undefined {
  if (page.before !== undefined && !isUuid(page.before)) {
    throw new MarketplaceError("invalid_input", "cursor: is not a valid cursor");
  }
  return page.before;
}

/** A LIMIT that PostgreSQL accepts for any requested size (it rejects negatives). */
export function pageLimit(page: PageQuery): number {
  return Math.max(0, page.limit);
}

/** One text[] parameter of `values` (null stays null): a column of an unnest, any number of rows. */
export const texts = (values: readonly (string | number | null)[]) =>
  sql.param(values.map((value) => (value === null ? null : String(value))));

/** Counts as an `int`, which postgres.js returns as a number (bigint would be a string). */
export const countInt = sql<number>`count(*)::int`;

/**
 * Locks the user's row until the transaction ends. Writes bounded by a per-user
 * count (listing slots, mail limits) take it first, so concurrent ones for one
 * user queue and each counts what the previous committed. Always user before
 * the user's rows: the order deleteCascade's foreign-key cascade takes too.
 *
 * NO KEY UPDATE, not UPDATE: it queues these writers just the same (and a
 * delete of the user), but lets a foreign-key check on the row pass (KEY
 * SHARE). An event for this user written by someone holding the event
 * counter (a message to them) must never wait here while we wait for the
 * counter: DESIGN.md "Event log".
 */
export async function lockUser(tx: Transaction, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
}
