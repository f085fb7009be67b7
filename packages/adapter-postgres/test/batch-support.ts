import type { Connection } from "../src/connection.js";

/** Statements of one kind on one table. */
export type StatementKind = readonly ["insert" | "update", "listings" | "events" | "event_sequence"];

/**
 * Counts the statements of each kind run while `work` runs: a statement-level
 * trigger records each, so a batch shows as one.
 */
export async function statementsOn(
  { sql }: Connection,
  kinds: readonly StatementKind[],
  work: () => Promise<void>,
): Promise<number[]> {
  const made = kinds.map(([event, table], i) => ({ event, table, seen: `psm_test_statements_${i}` }));
  for (const { event, table, seen } of made) {
    await sql.unsafe(`
      create table ${seen} (at timestamptz);
      create function ${seen}_count() returns trigger language plpgsql as
        $$ begin insert into ${seen} values (now()); return null; end $$;
      create trigger ${seen}_count after ${event} on ${table}
        for each statement execute function ${seen}_count();`);
  }
  try {
    await work();
    const counts: number[] = [];
    for (const { seen } of made) {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(seen)}`;
      counts.push(row?.n ?? -1);
    }
    return counts;
  } finally {
    for (const { table, seen } of made) {
      await sql.unsafe(`
        drop trigger ${seen}_count on ${table};
        drop function ${seen}_count();
        drop table ${seen};`);
    }
  }
}

/** Counts the `event` statements run on listings while `work` runs (see statementsOn). */
export async function statementsDuring(
  connection: Connection,
  event: "insert" | "update",
  work: () => Promise<void>,
): Promise<number> {
  const [n] = await statementsOn(connection, [[event, "listings"]], work);
  return n ?? -1;
}

/**
 * Resolves once `count` sessions of the connection's database wait for a lock (row or advisory).
 * It waits as long as that takes: a busy machine slows the sessions down, it does not change
 * what they do, so the test's own timeout is the only clock.
 */
export async function lockWaiters({ sql }: Connection, count: number): Promise<void> {
  for (;;) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if ((row?.n ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
