import {
  applyChanges,
  isSearchable,
  type Listing,
  type ListingChanges,
  type ListingFindResult,
  type ListingRepository,
  type ListingSearchResult,
  type NewEvent,
  type SlotGuard,
} from "@psm/core";
import type { Database } from "better-sqlite3";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import type { EventAppender } from "./event-repository.js";
import { createFindRunner, FIND_BUDGETS } from "./listing-find.js";
import { createInsertBatcher } from "./listing-insert-batcher.js";
import { createListingWriter } from "./listing-order.js";
import { ACTIVE_AT_NOW, LISTING_COLUMNS, type ListingRow, toListing, toParams } from "./listing-rows.js";
import { createSearchRunner, type SearchOptions, type SearchRows } from "./listing-search.js";
import { createViewBatcher } from "./view-batcher.js";

function prepareStatements(sqlite: Database, options: SearchOptions) {
  return {
    writer: createListingWriter(sqlite),
    searches: createSearchRunner(sqlite, options),
    // One budget for both kinds of search when it is set (tests set it small); facets examine four times it.
    finds: createFindRunner(
      sqlite,
      options.searchBudget === undefined
        ? FIND_BUDGETS
        : { find: Math.max(1, options.searchBudget), facets: Math.max(1, options.searchBudget * 4) },
    ),
    byId: sqlite.prepare<[string], ListingRow>(`SELECT ${LISTING_COLUMNS} FROM listings AS l WHERE l.id = ?`),
    countActive: sqlite
      .prepare<{ userId: string; now: number }, number>(
        `SELECT count(*) FROM listings AS l WHERE l.user_id = +@userId AND ${ACTIVE_AT_NOW}`,
      )
      .pluck(),
    countActiveMany: sqlite.prepare<{ ids: string; now: number }, { user_id: string; n: number }>(
      `SELECT l.user_id, count(*) AS n FROM listings AS l
       WHERE l.user_id IN (SELECT value FROM json_each(@ids)) AND ${ACTIVE_AT_NOW} GROUP BY l.user_id`,
    ),
    updateAll: sqlite.prepare(
      `UPDATE listings SET title = @title, title_folded = @title_folded, description = @description,
         price = @price, price_unit = @price_unit, category = @category, condition = @condition, images = @images,
         structured_data = @structured_data, status = @status, contact_email = @contact_email,
         expires_at = @expires_at
       WHERE id = @id`,
    ),
    deleteById: sqlite.prepare<[string]>("DELETE FROM listings WHERE id = ?"),
  };
}

/** A search's rows as listings, keeping where it stopped short (core's ListingSearchResult). */
function toSearchResult(rows: SearchRows): ListingSearchResult {
  const found: ListingSearchResult = rows.map(toListing);
  if (rows.resumeBefore !== undefined) found.resumeBefore = rows.resumeBefore;
  return found;
}

/**
 * ListingRepository on better-sqlite3; every statement is prepared once, on first use. Each write
 * appends its events in its own transaction, and only once the change is made.
 */
export function createListingRepository(
  sqlite: Database,
  appendEvents: EventAppender,
  options: SearchOptions = {},
): ListingRepository {
  const statements = lazy(() => prepareStatements(sqlite, options));
  const incrementViews = createViewBatcher(sqlite);
  const find = (id: string): Listing | null => {
    const row = statements().byId.get(id);
    return row ? toListing(row) : null;
  };
  const active = (userId: string, now: Date): number =>
    statements().countActive.get({ userId, now: now.getTime() }) ?? 0;

  // Runs inside the batch's BEGIN IMMEDIATE (listing-insert-batcher.ts): the write
  // lock is held from the slot count to the commit, so no other writer, in this
  // process or another one on the same file (busy_timeout waits), comes between.
  const insertWithinSlots = createInsertBatcher(
    sqlite,
    (listing: Listing, guard: SlotGuard, events?: readonly NewEvent[]): boolean => {
      if (active(listing.userId, guard.now) >= guard.maxSlots) return false;
      statements().writer.insert(listing);
      appendEvents(events);
      return true;
    },
  );

  // Whether an edit reactivates is read from the row inside the same write lock.
  const update = sqlite.transaction(
    (
      id: string,
      changes: ListingChanges,
      guard: SlotGuard,
      events?: readonly NewEvent[],
    ): Listing | null | "limit_reached" => {
      const current = find(id);
      if (!current) return null;
      const next = applyChanges(current, changes);
      const reactivates = !isSearchable(current, guard.now) && isSearchable(next, guard.now);
      // `current` is not searchable, so the count does not include it.
      if (reactivates && active(current.userId, guard.now) >= guard.maxSlots) return "limit_reached";
      statements().updateAll.run(toParams(next));
      appendEvents(events);
      return find(id);
    },
  );

  const remove = sqlite.transaction((id: string, events?: readonly NewEvent[]): boolean => {
    if (statements().deleteById.run(id).changes === 0) return false;
    appendEvents(events);
    return true;
  });

  return {
    findById: (id) => guarded(() => find(id)),
    // In process, a prepared lookup per id is the batch: no round trip to save.
    findByIds: (ids) => guarded(() => [...new Set(ids)].flatMap((id) => find(id) ?? [])),
    search: (query, now) => guarded(() => toSearchResult(statements().searches.run(query, now))),
    find: (query, now) =>
      guarded(() => {
        const rows = statements().finds.find(query, now);
        const found: ListingFindResult = rows.map(({ row, rank }) => ({ listing: toListing(row), rank }));
        if (rows.resumeAfter !== undefined) found.resumeAfter = rows.resumeAfter;
        return found;
      }),
    countByCategory: (query, cap, now) => guarded(() => statements().finds.countByCategory(query, cap, now)),
    listAll: (page) =>
      guarded(() =>
        statements()
          .searches.run({ ...page, status: "all" }, new Date(0))
          .map(toListing),
      ),
    insertWithinSlots,
    update: (id, changes, guard, events) => guarded(() => update.immediate(id, changes, guard, events)),
    delete: (id, events) => guarded(() => remove.immediate(id, events)),
    incrementViews,
    countActiveByUser: (userId, now) => guarded(() => active(userId, now)),
    countActiveByUsers: (userIds, now) =>
      guarded(() => {
        const counts = new Map<string, number>();
        if (userIds.length === 0) return counts;
        const rows = statements().countActiveMany.all({ ids: JSON.stringify(userIds), now: now.getTime() });
        for (const row of rows) counts.set(row.user_id, row.n);
        return counts;
      }),
  };
}
