/**
 * `@psm/adapter-postgres/testing`: a fresh database per test run, and a raw
 * connection with the adapter's settings for tests that reach underneath the
 * repositories (to inspect tables or break them on purpose).
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";

export { openConnection } from "../connection.js";

/** Why PostgreSQL tests did not run; the one line a skipped test file shows. */
export const POSTGRES_SKIP_REASON =
  "PostgreSQL tests need TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)";

/** The server tests run against, or undefined when none is configured. */
export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  return url === undefined || url === "" ? undefined : url;
}

/** A database of one test run's own, dropped by `drop()`. */
export interface TestDatabase {
  /** Connection URL of the fresh database. */
  url: string;
  /** Its name (`psm_test_`, or the prefix given, and random hex). */
  name: string;
  /** Empties every table of the public schema (after migrate() made them), the event counter and both cursors back at 0. */
  truncate(): Promise<void>;
  /** Closes this helper's connections and drops the database, even if clients linger. */
  drop(): Promise<void>;
}

/**
 * Creates a fresh database beside the one `adminUrl` names. A database, not a
 * schema: drizzle's migration journal and extensions are per database, so
 * runs sharing one database would see each other's migrations.
 */
export async function createTestDatabase(adminUrl: string, prefix = "psm_test"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const quiet = { onnotice: () => {} };
  const admin = postgres(adminUrl, { max: 1, ...quiet });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  const own = postgres(url, { max: 1, ...quiet });

  return {
    url,
    name,
    async truncate() {
      const tables = await own<{ name: string }[]>`
        select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`;
      if (tables.length === 0) return;
      await own.unsafe(`truncate ${tables.map((t) => t.name).join(", ")} cascade`);
      // The event counter's and the three cursors' one rows are the migrations', not data: writers
      // only update them.
      if (tables.some((t) => t.name === "event_sequence")) {
        await own`insert into event_sequence (id, last) values (1, 0)`;
      }
      if (tables.some((t) => t.name === "webhook_fanout")) {
        await own`insert into webhook_fanout (id, last_seq) values (1, 0)`;
      }
      if (tables.some((t) => t.name === "notification_cursor")) {
        await own`insert into notification_cursor (id, last_seq) values (1, 0)`;
      }
      if (tables.some((t) => t.name === "saved_search_cursor")) {
        await own`insert into saved_search_cursor (id, last_seq) values (1, 0)`;
      }
    },
    async drop() {
      await own.end({ timeout: 5 });
      const dropper = postgres(adminUrl, { max: 1, ...quiet });
      try {
        // WITH (FORCE) ends sessions a failed test left open (PostgreSQL 13+).
        await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end({ timeout: 5 });
      }
    },
  };
}
