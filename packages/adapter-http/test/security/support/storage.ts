/** Real storage for the app in process: a migrated SQLite file or PostgreSQL database of its own. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgresStorage } from "@psm/adapter-postgres";
import {
  createTestDatabase,
  openConnection as openPostgresConnection,
  testDatabaseUrl,
} from "@psm/adapter-postgres/testing";
import { openSqliteStorage } from "@psm/adapter-sqlite";
import { openConnection } from "@psm/adapter-sqlite/testing";
import type { Storage } from "@psm/core";

/** A storage of its own, and a way to break it underneath the app as a lost migration would. */
export interface RealStorage {
  storage: Storage;
  /** Drops the listings table behind the repositories' back. */
  dropListings(): Promise<void>;
  /** The driver's code for "no such table" on this backend. */
  missingTableCode: string;
  /** Closes the storage and removes its file or database. */
  close(): Promise<void>;
}

/** Opens and migrates a fresh storage on `backend`; PostgreSQL's pool holds `poolMax` connections. */
export async function openStorage(backend: "sqlite" | "postgres", poolMax?: number): Promise<RealStorage> {
  if (backend === "sqlite") {
    const dir = await mkdtemp(join(tmpdir(), "psm-storage-"));
    const file = join(dir, "marketplace.db");
    const storage = openSqliteStorage({ file });
    await storage.migrate();
    return {
      storage,
      missingTableCode: "SQLITE_ERROR",
      async dropListings() {
        const other = openConnection(file);
        other.exec("DROP TABLE listings");
        other.close();
      },
      async close() {
        await storage.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = testDatabaseUrl();
  if (adminUrl === undefined) throw new Error("BACKENDS lists postgres only with TEST_DATABASE_URL");
  const database = await createTestDatabase(adminUrl, "psm_storage");
  const storage = openPostgresStorage({ url: database.url, poolMax });
  await storage.migrate();
  return {
    storage,
    missingTableCode: "42P01", // undefined_table
    async dropListings() {
      const sql = openPostgresConnection(database.url, 1);
      await sql.unsafe("drop table listings cascade");
      await sql.end({ timeout: 5 });
    },
    async close() {
      await storage.close();
      await database.drop();
    },
  };
}
