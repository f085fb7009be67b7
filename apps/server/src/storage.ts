import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Storage } from "@psm/core";
import type { Config } from "./config.js";

/** Opens the storage DATABASE_URL names, importing only that adapter (SQLite never loads postgres.js). */
export async function openStorage(config: Config): Promise<Storage> {
  if (config.database.kind === "postgres") {
    const { openPostgresStorage } = await import("@psm/adapter-postgres");
    return openPostgresStorage({ url: config.database.url, poolMax: config.pgPoolMax });
  }
  await mkdir(dirname(config.database.file), { recursive: true, mode: 0o700 });
  const { openSqliteStorage } = await import("@psm/adapter-sqlite");
  return openSqliteStorage({ file: config.database.file });
}
