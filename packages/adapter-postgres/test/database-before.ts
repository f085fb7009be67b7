/** The database an older release left behind, for the upgrade tests of migrate*.test.ts. */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import type postgres from "postgres";
import { expect } from "vitest";
import { connect } from "../src/connection.js";
import { MIGRATIONS_FOLDER } from "../src/migrations-folder.js";
import { createTestDatabase, testDatabaseUrl } from "../src/testing/index.js";

/** A database of its own at an older migration, and a connection to fill it with. */
export interface OldDatabase {
  url: string;
  /** One connection, for the old schema's rows. */
  sql: postgres.Sql;
  /** Ends `sql` and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh database with every migration before `tag` applied, as the release
 * without `tag` applied them: drizzle's migrator over a copy of the folder
 * whose journal stops there. For tests inside describePostgres.
 */
export async function databaseBefore(tag: string): Promise<OldDatabase> {
  const adminUrl = testDatabaseUrl();
  if (adminUrl === undefined) throw new Error("databaseBefore runs inside describePostgres only");
  const database = await createTestDatabase(adminUrl);
  const { sql, db } = connect(database.url, 1);
  const drop = async () => {
    await sql.end({ timeout: 5 });
    await database.drop();
  };
  const folder = await mkdtemp(join(tmpdir(), "psm-pg-migrations-"));
  try {
    await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { tag: string }[] };
    const cut = journal.entries.findIndex((entry) => entry.tag === tag);
    expect(cut).toBeGreaterThan(0);
    await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
    await migrate(db, { migrationsFolder: folder });
    return { url: database.url, sql, drop };
  } catch (error) {
    await drop();
    throw error;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
