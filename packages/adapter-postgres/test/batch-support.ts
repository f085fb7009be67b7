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
