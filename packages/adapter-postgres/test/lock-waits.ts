import type postgres from "postgres";

/**
 * Waits until `count` connections named `applicationName` wait on a lock in this database, polling
 * pg_stat_activity (counted, not timed: a slow machine only polls longer); answers how many do,
 * less than `count` only after 2,000 polls.
 */
export async function untilLockWaits(
  admin: postgres.Sql,
  applicationName: string,
  count: number,
): Promise<number> {
  let waiting = 0;
  for (let tries = 0; waiting < count && tries < 2_000; tries++) {
    const [row] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = ${applicationName} and wait_event_type = 'Lock'`;
    waiting = row?.n ?? 0;
    if (waiting < count) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return waiting;
}
