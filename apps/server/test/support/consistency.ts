/** Database-level consistency checks, run on the files and tables a killed server left behind. */
import { join } from "node:path";
import { openConnection } from "@psm/adapter-postgres/testing";
import { openReadOnly } from "@psm/adapter-sqlite/testing";
import type { Backend } from "./backends.js";
import type { Harness } from "./harness.js";
import { type ServerProcess, SHARED_JWT_SECRET } from "./server-process.js";

/** Enough slots that every create under load is a real write, never a 403. */
const UNLIMITED_SLOTS = { LISTING_SLOTS: "personal:1000000,business:1000000,admin:1000000" };

/** A storage of its own for a test that kills servers on it. */
export interface CheckedStorage {
  dataDir: string;
  /** The variables that select it, and a JWT secret that survives a restart. */
  env: Record<string, string>;
  /** Consistency problems of the stored data; empty when consistent. */
  problems(): Promise<string[]>;
  /** Starts a server on it with unlimited slots; killed (SIGKILL) when the harness releases it. */
  start(): Promise<ServerProcess>;
}

/** Opens a DATA_DIR and a database on `backend` through `h`, which throws both away. */
export async function openCheckedStorage(h: Harness, backend: Backend): Promise<CheckedStorage> {
  const dataDir = await h.dataDir();
  const database = await h.database(backend, "psm_reliability");
  const env = { JWT_SECRET: SHARED_JWT_SECRET, ...database.env };
  const url = database.url;
  return {
    dataDir,
    env,
    problems: async () =>
      url === undefined ? sqliteProblems(join(dataDir, "marketplace.db")) : postgresProblems(url),
    start: () => h.server({ dataDir, env: { ...env, ...UNLIMITED_SLOTS }, stopWith: "SIGKILL" }),
  };
}

const ORPHAN_TABLES = ["listings", "api_keys", "reset_tokens", "mail_jobs"];
const orphans = (table: string) =>
  `SELECT count(*) AS n FROM ${table} AS t LEFT JOIN users AS u ON u.id = t.user_id WHERE u.id IS NULL`;

/**
 * Opens the SQLite file read-only, as found after the kill (WAL and all), and
 * lists every problem: integrity_check not "ok", foreign-key violations,
 * orphaned rows, negative view counts. Empty means consistent.
 */
export function sqliteProblems(file: string): string[] {
  const db = openReadOnly(file);
  try {
    const problems: string[] = [];
    const integrity = db.prepare("PRAGMA integrity_check").pluck().all();
    if (integrity.join() !== "ok") problems.push(`integrity_check: ${integrity.join("; ")}`);
    const fk = db.prepare("PRAGMA foreign_key_check").all();
    if (fk.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(fk.slice(0, 5))}`);
    for (const table of ORPHAN_TABLES) {
      const n = db.prepare(orphans(table)).pluck().get();
      if (n !== 0) problems.push(`${table}: ${String(n)} rows without a user`);
    }
    const negative = db.prepare("SELECT count(*) FROM listings WHERE views < 0").pluck().get();
    if (negative !== 0) problems.push(`${String(negative)} listings with negative views`);
    return problems;
  } finally {
    db.close();
  }
}

/**
 * The same on PostgreSQL, which enforces constraints itself: every constraint
 * is validated, no orphaned rows, no negative views, no duplicate ids.
 */
export async function postgresProblems(url: string): Promise<string[]> {
  const sql = openConnection(url, 1);
  try {
    const problems: string[] = [];
    const unvalidated = await sql<
      { conname: string }[]
    >`SELECT conname FROM pg_constraint WHERE NOT convalidated`;
    if (unvalidated.length > 0)
      problems.push(`unvalidated constraints: ${unvalidated.map((c) => c.conname).join()}`);
    for (const table of ORPHAN_TABLES) {
      const [row] = await sql.unsafe<{ n: number }[]>(orphans(table).replace("count(*)", "count(*)::int"));
      if (row?.n !== 0) problems.push(`${table}: ${row?.n} rows without a user`);
    }
    const [bad] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM listings WHERE views < 0`;
    if (bad?.n !== 0) problems.push(`${bad?.n} listings with negative views`);
    return problems;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
