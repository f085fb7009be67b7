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
  dispose(): Promise<void>;
}

const adminUrl = testDatabaseUrl();

/** The backends this run covers: PostgreSQL only when TEST_DATABASE_URL names a server. */
export const BACKENDS: readonly Backend[] = adminUrl === undefined ? ["sqlite"] : ["sqlite", "postgres"];

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
 * and dropped here, as decisions.md asks), or SQLite's default file, which
 * lives in the DATA_DIR the caller removes.
 */
export async function openDatabase(backend: Backend): Promise<Database> {
  if (backend === "sqlite") return { env: {}, dispose: async () => {} };
  if (adminUrl === undefined) throw new Error(POSTGRES_SKIP_REASON);
  const database = await createTestDatabase(adminUrl, "psm_e2e");
  return { env: { DATABASE_URL: database.url }, dispose: () => database.drop() };
}
