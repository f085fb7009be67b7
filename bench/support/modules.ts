/**
 * Third-party modules the benchmarks need but the repository root does not
 * depend on (pnpm's strict node_modules): loaded from the workspace package
 * that does, and typed through that package's own declarations.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { createListingWriter } from "@psm/adapter-sqlite/internal/listing-writer";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** A better-sqlite3 connection, typed as adapter-sqlite's writer takes it. */
export type SqliteDb = Parameters<typeof createListingWriter>[0];

type SqliteCtor = new (file: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => SqliteDb;

/** better-sqlite3 from adapter-sqlite: the same SQLite build the server uses. */
export function openSqlite(file: string, options: { readonly?: boolean } = {}): SqliteDb {
  const Database = createRequire(`${root}packages/adapter-sqlite/package.json`)(
    "better-sqlite3",
  ) as SqliteCtor;
  return new Database(file, { readonly: options.readonly ?? false, fileMustExist: true });
}

/** The subset of autocannon's options the benchmark uses. */
export interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** A sequence each connection cycles through, each request built once. */
  requests?: {
    path: string;
    headers?: Record<string, string>;
    /** Called before each request; its answer is sent (a path drawn per request). */
    setupRequest?: (request: { path: string }) => { path: string };
  }[];
  timeout?: number;
}

/** The fields of an autocannon result the benchmark reads. */
export interface CannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  "5xx": number;
  latency: { p50: number; p99: number; average: number };
  requests: { sent: number; total: number; average: number };
  statusCodeStats: Record<string, { count: number }>;
}

type Cannon = (options: CannonOptions) => Promise<CannonResult>;

/** autocannon, the devDependency of apps/server. */
export function loadAutocannon(): Cannon {
  return createRequire(`${root}apps/server/package.json`)("autocannon") as Cannon;
}

/** The repository root, with a trailing slash. */
export const REPO_ROOT = root;
