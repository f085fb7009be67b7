import { buildApiKey, buildUser, expectUpgradedKeyWorks } from "@psm/core/testing";
import { it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

describePostgres("postgres api key migration", () => {
  it("upgrades a 1.2 database: its keys stay unrestricted and unexpiring, and can be rotated", async () => {
    // The migrations of 1.2 (everything before 0009), applied as 1.2 applied them.
    const old = await databaseBefore("0009_api_key_scopes");
    try {
      const user = buildUser();
      await old.sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 0, ${user.createdAt.toISOString()})`;
      const key = buildApiKey({ userId: user.id });
      await old.sql`insert into api_keys (id, user_id, name, key_hash, is_active, created_at)
        values (${key.id}, ${user.id}, ${key.name}, ${key.keyHash}, true, ${key.createdAt.toISOString()})`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        await expectUpgradedKeyWorks(storage.repositories.apiKeys, key);
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });
});
