import type { Storage } from "@psm/core";
import { afterAll, beforeAll, describe, test } from "vitest";
import { type Connection, connect } from "../src/connection.js";
import { openPostgresStorage } from "../src/index.js";
import {
  createTestDatabase,
  POSTGRES_SKIP_REASON,
  type TestDatabase,
  testDatabaseUrl,
} from "../src/testing/index.js";

/** What a PostgreSQL test group gets: its migrated database and helpers over it. */
export interface PostgresContext {
  database(): TestDatabase;
  /** A storage on the group's database; closed after the group. */
  storage(poolMax?: number): Storage;
  /** A raw pool with the adapter's connection settings; closed after the group. */
  connection(max?: number): Connection;
}

/**
 * A describe block on a fresh, migrated database of its own, or, without
 * TEST_DATABASE_URL, one skipped test whose name says why.
 */
export function describePostgres(name: string, body: (ctx: PostgresContext) => void): void {
  const adminUrl = testDatabaseUrl();
  if (adminUrl === undefined) {
    test.skip(`${name}: ${POSTGRES_SKIP_REASON}`, () => {});
    return;
  }
  describe(name, () => {
    let database: TestDatabase | undefined;
    const opened: { close(): Promise<void> }[] = [];
    const current = (): TestDatabase => {
      if (!database) throw new Error("test database not created");
      return database;
    };
    beforeAll(async () => {
      database = await createTestDatabase(adminUrl);
      const storage = openPostgresStorage({ url: database.url });
      await storage.migrate();
      await storage.close();
    });
    afterAll(async () => {
      await Promise.all(opened.map((handle) => handle.close()));
      await database?.drop();
    });
    body({
      database: current,
      storage(poolMax) {
        const storage = openPostgresStorage({ url: current().url, poolMax });
        opened.push(storage);
        return storage;
      },
      connection(max = 1) {
        const connection = connect(current().url, max);
        opened.push({ close: () => connection.sql.end({ timeout: 5 }) });
        return connection;
      },
    });
  });
}
