import type { Listing, NewEvent, SlotGuard } from "@psm/core";
import type { Database } from "better-sqlite3";
import { guarded, toMarketplaceError } from "../db-errors.js";

interface Pending {
  listing: Listing;
  guard: SlotGuard;
  events: readonly NewEvent[] | undefined;
  resolve: (inserted: boolean) => void;
  reject: (error: Error) => void;
}

type Outcome = { inserted: boolean } | { error: unknown };

/**
 * Group commit for listing inserts, as createViewBatcher does for views:
 * with `synchronous = FULL` the WAL sync of each commit is most of what an
 * insert costs, so the inserts that arrive within one turn of the event loop
 * share one `BEGIN IMMEDIATE` transaction and one sync.
 *
 * - Durable: each insert resolves only after the commit that holds it.
 * - Slots exact: members run in arrival order inside the one write lock, and
 *   each counts its author's active listings (earlier members' inserts
 *   included) right before its own insert, so count-and-insert stays atomic
 *   per author, in the batch and against other processes.
 * - Failures: a member that throws (a duplicate id) is rolled back to its own
 *   savepoint and rejected alone; a failed commit rejects every member.
 * - Inside a unit of work (a transaction already open on the connection, so
 *   no shared call is pending: the gate in index.ts), the insert runs at
 *   once as a savepoint of the unit and commits with it.
 *
 * `insertOne(listing, guard, events)` counts and inserts, the listing's events
 * with it (in its savepoint, so a member rolled back takes its events along);
 * false when the slots are full.
 */
export function createInsertBatcher(
  sqlite: Database,
  insertOne: (listing: Listing, guard: SlotGuard, events?: readonly NewEvent[]) => boolean,
): (listing: Listing, guard: SlotGuard, events?: readonly NewEvent[]) => Promise<boolean> {
  // Nested inside `commit` (or inside a unit), better-sqlite3 makes this a savepoint.
  const member = sqlite.transaction(insertOne);
  const commit = sqlite.transaction((batch: Pending[]): Outcome[] =>
    batch.map((p) => {
      try {
        return { inserted: member(p.listing, p.guard, p.events) };
      } catch (error) {
        return { error };
      }
    }),
  );
  let batch: Pending[] | undefined;

  function flush(pending: Pending[]): void {
    let outcomes: Outcome[];
    try {
      // IMMEDIATE takes the write lock at BEGIN, as every other write here does.
      outcomes = commit.immediate(pending);
    } catch (error) {
      const failure = toMarketplaceError(error);
      for (const p of pending) p.reject(failure);
      return;
    }
    pending.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome && "inserted" in outcome) p.resolve(outcome.inserted);
      else p.reject(toMarketplaceError(outcome?.error));
    });
  }

  return (listing, guard, events) => {
    if (sqlite.inTransaction) return guarded(() => member(listing, guard, events));
    return new Promise<boolean>((resolve, reject) => {
      if (batch === undefined) {
        const pending: Pending[] = [];
        batch = pending;
        setImmediate(() => {
          batch = undefined;
          flush(pending);
        });
      }
      batch.push({ listing, guard, events, resolve, reject });
    });
  };
}
