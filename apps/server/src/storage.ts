import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Storage } from "@psm/core";
import type { Config } from "./config.js";
import { resolveDrizzleDirectly } from "./drizzle-resolve.js";
import { databaseError } from "./start-errors.js";

/**
 * The storage, on PostgreSQL how busy its search pool is (the metrics read it), and on SQLite
 * the memory it hands back once the server is quiet (heap.ts) and its search indexes' merging
 * (search-index-upkeep.ts).
 */
export type ServerStorage = Storage & {
  readonly searchPool?: { readonly size: number; readonly inFlight: number };
  releaseMemory?(): void;
  mergeSearchIndexes?(pages: number): boolean;
};

/**
 * Opens the storage DATABASE_URL names, importing only that adapter (SQLite
 * never loads postgres.js), and migrates it: the first moment the database is
 * reached. A failure of either stops the start with one line naming
 * DATABASE_URL (or DATA_DIR), never its password.
 */
export async function openStorage(config: Config): Promise<ServerStorage> {
  let storage: ServerStorage | undefined;
  try {
    storage = await open(config);
    await storage.migrate();
    return storage;
  } catch (error) {
    await storage?.close().catch(() => undefined);
    throw databaseError(config, error);
  }
}

async function open(config: Config): Promise<ServerStorage> {
  resolveDrizzleDirectly();
  if (config.database.kind === "postgres") {
    const { openPostgresStorage } = await import("@psm/adapter-postgres");
    return openPostgresStorage({
      url: config.database.url,
      poolMax: config.pgPoolMax,
      searchPoolMax: config.pgSearchPoolMax,
    });
  }
  await mkdir(dirname(config.database.file), { recursive: true, mode: 0o700 });
  const { openSqliteStorage } = await import("@psm/adapter-sqlite");
  return openSqliteStorage({ file: config.database.file });
}
