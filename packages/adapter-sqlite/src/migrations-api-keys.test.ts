import { buildApiKey, buildUser, expectUpgradedKeyWorks } from "@psm/core/testing";
import { afterAll, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

it("upgrade a 1.2 database: its keys stay unrestricted and unexpiring, and can be rotated", async () => {
  // The migrations of 1.2 (everything before 0006), applied as 1.2 applied them.
  const { file, sqlite } = databaseBefore("0006_api-key-scopes");
  const user = buildUser();
  insertOldUser(sqlite, user);
  const key = buildApiKey({ userId: user.id });
  sqlite
    .prepare(
      "INSERT INTO api_keys (id, user_id, name, key_hash, is_active, created_at) VALUES (?, ?, ?, ?, 1, ?)",
    )
    .run(key.id, user.id, key.name, key.keyHash, key.createdAt.getTime());
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    await expectUpgradedKeyWorks(storage.repositories.apiKeys, key);
  } finally {
    await storage.close();
  }
});
