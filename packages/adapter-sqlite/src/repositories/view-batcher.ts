import type { Database } from "better-sqlite3";
import { toMarketplaceError } from "../db-errors.js";
import { lazy } from "../lazy.js";

interface Waiter {
  resolve: (found: boolean) => void;
  reject: (error: Error) => void;
}

/**
 * Group commit for view increments. With `synchronous = FULL` each commit
 * syncs the WAL, and that sync is most of what a view costs; the increments
 * that arrive within one turn of the event loop are written in one
 * transaction, so one sync acknowledges them all. Each still resolves only
 * after its commit (an acknowledged view survives a crash), N concurrent views
 * add exactly N, and a failed commit rejects every view in it (none counted).
 *
 * Returns `incrementViews(id)`: true when the listing exists.
 */
export function createViewBatcher(sqlite: Database): (id: string) => Promise<boolean> {
  // Prepared on first use: the table exists only once migrate() has run. One statement per
  // listing does the read-modify-write inside SQLite, so the counts add up exactly.
  const addViews = lazy(() =>
    sqlite.prepare<{ id: string; n: number }>("UPDATE listings SET views = views + @n WHERE id = @id"),
  );
  const commit = sqlite.transaction((pending: Map<string, Waiter[]>) => {
    const found = new Map<string, boolean>();
    for (const [id, waiters] of pending) found.set(id, addViews().run({ id, n: waiters.length }).changes > 0);
    return found;
  });
  let batch: Map<string, Waiter[]> | undefined;

  function flush(pending: Map<string, Waiter[]>): void {
    let found: Map<string, boolean>;
    try {
      // IMMEDIATE takes the write lock at BEGIN, as every other write here does.
      found = commit.immediate(pending);
    } catch (error) {
      const failure = toMarketplaceError(error);
      for (const waiters of pending.values()) for (const waiter of waiters) waiter.reject(failure);
      return;
    }
    for (const [id, waiters] of pending) for (const waiter of waiters) waiter.resolve(found.get(id) === true);
  }

  return (id) =>
    new Promise<boolean>((resolve, reject) => {
      if (batch === undefined) {
        const pending = new Map<string, Waiter[]>();
        batch = pending;
        setImmediate(() => {
          batch = undefined;
          flush(pending);
        });
      }
      const waiters = batch.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else batch.set(id, [{ resolve, reject }]);
    });
}
