import type { Connection } from "../src/connection.js";

/**
 * Counts the `event` statements (`insert` or `update`) run on listings while
 * `work` runs: a statement-level trigger records each, so a batch shows as one.
 */
export async function statementsDuring(
  { sql }: Connection,
  event: "insert" | "update",
  work: () => Promise<void>,
): Promise<number> {
  await sql.unsafe(`
    create table psm_test_statements (at timestamptz);
    create function psm_test_count_statement() returns trigger language plpgsql as
      $$ begin insert into psm_test_statements values (now()); return null; end $$;
    create trigger psm_test_count_statements after ${event} on listings
      for each statement execute function psm_test_count_statement();`);
  try {
    await work();
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from psm_test_statements`;
    return row?.n ?? -1;
  } finally {
    await sql.unsafe(`
      drop trigger psm_test_count_statements on listings;
      drop function psm_test_count_statement();
      drop table psm_test_statements;`);
  }
}

/** Resolves once `count` sessions of the connection's database wait for a row lock. */
export async function lockWaiters({ sql }: Connection, count: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if ((row?.n ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never saw ${count} sessions waiting for a lock`);
}
