import type { NewEvent } from "@psm/core";
import { sql } from "drizzle-orm";
import type { Db, Transaction } from "../connection.js";

/**
 * Writes `events` in `tx`, with seqs taken from the counter row in the same statement. It must be
 * the transaction's last statement before COMMIT: the counter row stays locked until then, so no
 * other writer takes a seq until these are visible (DESIGN.md "Event log"). One statement however
 * many events: a round trip, one UPDATE, one multi-row INSERT.
 */
export async function writeEvents(tx: Transaction, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const n = events.length;
  // Instants and data go as text[]: postgres.js serializes no timestamptz[] or jsonb[] parameter.
  const rows = await tx.execute(sql`
    with counter as (
      update event_sequence set last = last + ${n} where id = 1 returning last
    )
    insert into events (seq, id, type, user_id, occurred_at, data)
    select counter.last - ${n} + e.ord, e.id, e.type, e.user_id, e.occurred_at::timestamptz, e.data::jsonb
    from counter, unnest(
      ${sql.param(events.map((event) => event.id))}::text[],
      ${sql.param(events.map((event) => event.type))}::text[],
      ${sql.param(events.map((event) => event.userId))}::uuid[],
      ${sql.param(events.map((event) => event.occurredAt.toISOString()))}::text[],
      ${sql.param(events.map((event) => JSON.stringify(event.data)))}::text[]
    ) with ordinality as e(id, type, user_id, occurred_at, data, ord)`);
  // Without its row the counter would hand out nothing and the events would vanish: fail instead.
  if (rows.count !== n) throw new Error(`event_sequence has no row: ${rows.count} of ${n} events written`);
}

/** How a repository writes the events of its changes. */
export interface EventWrites {
  /**
   * Runs `change` in a transaction of its own (a savepoint inside a unit of work) and writes
   * `events` with it when `happened(result)`; nothing when the change did not happen.
   */
  with<T>(
    change: (tx: Transaction) => Promise<T>,
    events: readonly NewEvent[],
    happened: (result: T) => boolean,
  ): Promise<T>;
}

/**
 * On the pool, events go in the change's own transaction. Inside a unit of work (`outbox` given)
 * they wait in the outbox and are written when the unit ends, just before its COMMIT: the counter
 * row is then locked for the unit's last statement only, never while the unit still takes other
 * locks (a cycle with a writer holding those and waiting for the counter). A savepoint that rolled
 * back, or a change that did not happen, adds nothing.
 */
export function eventWrites(db: Db, outbox?: NewEvent[]): EventWrites {
  return {
    async with(change, events, happened) {
      if (outbox !== undefined) {
        const result = await db.transaction(change);
        if (happened(result)) outbox.push(...events);
        return result;
      }
      return db.transaction(async (tx) => {
        const result = await change(tx);
        if (happened(result)) await writeEvents(tx, events);
        return result;
      });
    },
  };
}
