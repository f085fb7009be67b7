/** The storages a server under test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL names a server. */
import { createTestDatabase, POSTGRES_SKIP_REASON, testDatabaseUrl } from "@psm/adapter-postgres/testing";
import { test } from "vitest";

/** A storage the server can run on. */
export type Backend = "sqlite" | "postgres";

/** LEGACY_PUBLIC_ENDPOINTS unset (strict) or true (legacy). */
export type Mode = "strict" | "legacy";

/** Where the server under test keeps its data, and how to throw it away. */
export interface Database {
  /** Variables that point the server at it (none for SQLite: the default file in DATA_DIR). */
  env: Record<string, string>;
  /** PostgreSQL's connection URL; undefined for SQLite. */
  url: string | undefined;
  dispose(): Promise<void>;
}

const adminUrl = testDatabaseUrl();

/** The backends this run covers: PostgreSQL only when TEST_DATABASE_URL names a server. */
export const BACKENDS: readonly Backend[] = adminUrl === undefined ? ["sqlite"] : ["sqlite", "postgres"];

/** The backends with the names suites print them by ("crash recovery on PostgreSQL"). */
export const NAMED_BACKENDS = BACKENDS.map((backend) => ({
  backend,
  name: backend === "sqlite" ? "SQLite" : "PostgreSQL",
}));

/** Both security modes. */
export const MODES: readonly Mode[] = ["strict", "legacy"];

/**
 * Registers the one skipped line that says why the PostgreSQL variants of a
 * file did not run; a no-op when they do run.
 */
export function reportSkippedPostgres(what: string): void {
  if (adminUrl === undefined) test.skip(`${what} on postgres: ${POSTGRES_SKIP_REASON}`, () => {});
}

/**
 * A fresh database for one server: a PostgreSQL database of its own (created
 * and dropped here, as decisions.md asks; `prefix` starts its name), or
 * SQLite's default file, which lives in the DATA_DIR the caller removes.
 */
export async function openDatabase(backend: Backend, prefix = "psm_e2e"): Promise<Database> {
  if (backend === "sqlite") return { env: {}, url: undefined, dispose: async () => {} };
  if (adminUrl === undefined) throw new Error(POSTGRES_SKIP_REASON);
  const database = await createTestDatabase(adminUrl, prefix);
  return { env: { DATABASE_URL: database.url }, url: database.url, dispose: () => database.drop() };
}
