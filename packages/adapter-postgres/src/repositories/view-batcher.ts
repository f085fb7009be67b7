import { sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { sqlState, toMarketplaceError } from "../db-errors.js";
import { createBatchQueue } from "./batch-queue.js";

interface Waiter {
  resolve: (found: boolean) => void;
  reject: (error: Error) => void;
}

/** Views waiting for one statement, by lower-cased listing id. */
type Batch = Map<string, Waiter[]>;

/** Tuning of createViewBatcher; the defaults are what production uses. */
export interface ViewBatcherOptions {
  /** Distinct listings in one statement (default 1,000), so that a flood cannot build an unbounded one. */
  maxIds?: number;
  /**
   * Statements writing views at once (default 1). One is enough: whatever arrives
   * during a write joins the next batch, so batches grow with the load, and views
   * hold one pooled connection, not the reads' share. More would let a batch stuck
   * behind a long-held row lock not hold up the rest; they measured no faster:
   * DESIGN.md "Group commits".
   */
  maxInFlight?: number;
  /**
   * Times a batch chosen as a deadlock victim (40P01) is written again (default 3).
   * Batches never deadlock one another (rows locked in id order); a cycle needs
   * some other transaction taking listing rows in another order.
   */
  deadlockRetries?: number;
}

/** SQLSTATE of a deadlock victim. */
const DEADLOCK = "40P01";

/**
 * Adds each listing's count in one autocommit statement and returns the ids
 * that exist. The rows are locked in id order before any is updated: batches
 * of other processes over overlapping ids then queue behind one another
 * instead of each holding a row the other waits for. MATERIALIZED keeps the
 * locking SELECT (LockRows over the sort) a step of its own, and the UPDATE
 * joins only rows it has already locked.
 */
async function writeBatch(db: Db, ids: string[], counts: number[]): Promise<Set<string>> {
  const rows = await db.execute<{ id: string }>(sql`
    with c as (select * from unnest(${sql.param(ids)}::uuid[], ${sql.param(counts)}::int[]) as c(id, n)),
    locked as materialized (
      select l.id, c.n from listings l join c on l.id = c.id order by l.id for update of l
    )
    update listings l set views = l.views + locked.n from locked where l.id = locked.id returning l.id`);
  return new Set(rows.map((row) => row.id));
}

/**
 * Group commit for view increments on the pool. Each view used to be an
 * autocommit UPDATE of its own, one round trip and one WAL flush apiece; here
 * the views that arrive within one turn of the event loop, or while earlier
 * ones are being written, go into one statement. Each still resolves only
 * after the commit that holds it (true when the listing exists), N concurrent
 * views add exactly N, and a failed statement rejects every view in it (none
 * counted), mapped as guarded() maps errors.
 *
 * Only for the pool: inside a transaction the increment must belong to that
 * transaction, so the repository runs it there directly.
 *
 * Takes listing ids already known to be uuids.
 */
export function createViewBatcher(
  db: Db,
  options: ViewBatcherOptions = {},
): (id: string) => Promise<boolean> {
  const maxIds = options.maxIds ?? 1_000;
  const maxInFlight = options.maxInFlight ?? 1;
  const deadlockRetries = options.deadlockRetries ?? 3;
  async function write(batch: Batch): Promise<void> {
    // In any order: the statement takes the row locks sorted.
    const ids = [...batch.keys()];
    const counts = ids.map((id) => batch.get(id)?.length ?? 0);
    for (let attempt = 0; ; attempt++) {
      try {
        const found = await writeBatch(db, ids, counts);
        for (const [id, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.has(id));
        return;
      } catch (error) {
        // The statement was its own transaction and rolled back whole: writing it again counts nothing twice.
        if (sqlState(error) === DEADLOCK && attempt < deadlockRetries) continue;
        const failure = toMarketplaceError(error);
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(failure);
        return;
      }
    }
  }

  const queue = createBatchQueue(write, maxInFlight);

  return (id) =>
    new Promise<boolean>((resolve, reject) => {
      // PostgreSQL takes a uuid in either case. One key per row: a row listed twice would join
      // twice, and an UPDATE applies only one of the two counts.
      const key = id.toLowerCase();
      const waiters = queue.newest()?.get(key);
      if (waiters) {
        waiters.push({ resolve, reject });
      } else {
        const full = (batch: Batch) => batch.size >= maxIds;
        queue.filling(() => new Map(), full).set(key, [{ resolve, reject }]);
      }
      queue.schedule();
    });
}
