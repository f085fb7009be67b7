import type postgres from "postgres";
import type { Connection } from "../src/connection.js";
import { lockWaiters } from "./batch-support.js";

/** Where the batch under test is stopped, and what the rival then waits for. */
export interface ForcedDeadlock<T> {
  /** The listings row event at which the batch, holding its rows, is stopped: `before update of views`. */
  event: string;
  /** The trigger's `when` condition: only the test's rows stop. */
  when: string;
  /** The rival's statement that waits for a row the batch holds. */
  rivalWaits: (tx: postgres.TransactionSql) => Promise<unknown>;
  /** Starts the batch; settles once it has been written or refused. */
  batch: () => Promise<T>;
}

// Advisory lock keys of the test's gate and of the lock the rival holds.
const GATE = 7_270_001;
const HELD = 7_270_002;

/**
 * A true deadlock that the batch always loses, by lock order and never by timing. PostgreSQL
 * checks a waiting session for a cycle once, deadlock_timeout after its wait began, so only a
 * session that starts waiting after the cycle exists is sure to find it. A test trigger makes
 * the batch, holding its rows, wait on a gate (an advisory lock a gatekeeper holds) and then on
 * the rival's advisory lock; the rival (which never checks: deadlock_timeout 1 h) waits for one
 * of the batch's rows; only once both wait does the gatekeeper let go, and the batch's next wait
 * closes the cycle. A retried batch passes the open gate and waits for the rival's commit.
 */
export async function forcedDeadlock<T>(connect: () => Connection, plan: ForcedDeadlock<T>): Promise<T> {
  const observer = connect();
  await observer.sql.unsafe(`
    create function psm_test_gate() returns trigger language plpgsql as $$ begin
      perform pg_advisory_xact_lock(${GATE}); perform pg_advisory_xact_lock(${HELD}); return new;
    end $$;
    create trigger psm_test_gate ${plan.event} on listings for each row when (${plan.when})
      execute function psm_test_gate();`);
  try {
    const gateHeld = signal();
    const gateOpen = signal();
    const rivalHolds = signal();
    const batchWaits = signal();
    const gatekeeper = connect().sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${GATE})`;
      gateHeld.fire();
      await gateOpen.fired;
    });
    const rival = connect().sql.begin(async (tx) => {
      await tx`set local deadlock_timeout = '1h'`;
      await tx`select pg_advisory_xact_lock(${HELD})`;
      rivalHolds.fire();
      await batchWaits.fired;
      await plan.rivalWaits(tx);
    });
    await Promise.all([gateHeld.fired, rivalHolds.fired]);
    const result = plan.batch();
    await lockWaiters(observer, 1); // the batch holds its rows and waits at the gate
    batchWaits.fire();
    await lockWaiters(observer, 2); // the rival waits for one of them
    gateOpen.fire();
    const settled = await result;
    await Promise.all([gatekeeper, rival]);
    return settled;
  } finally {
    await observer.sql.unsafe("drop trigger psm_test_gate on listings; drop function psm_test_gate();");
  }
}

function signal(): { fire: () => void; fired: Promise<void> } {
  let fire: () => void = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}
