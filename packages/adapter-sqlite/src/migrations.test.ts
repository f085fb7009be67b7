import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildUser, testId } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { MIGRATIONS_FOLDER, openSqliteStorage } from "./index.js";
import { runChild } from "./test-support/child.js";
import { openMigrated, removeTempDbs, tempDbFile } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

function schemaObjects(file: string): { type: string; name: string }[] {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite
      .prepare<[], { type: string; name: string }>(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
      )
      .all();
  } finally {
    sqlite.close();
  }
}

function journalLength(file: string): number {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare<[], number>("SELECT count(*) FROM __drizzle_migrations").pluck().get() ?? 0;
  } finally {
    sqlite.close();
  }
}

const migrationFiles = readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith(".sql"));

describe("migrations", () => {
  it("are committed SQL with drizzle's journal, one entry per file", () => {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(migrationFiles.sort());
  });

  it("create the expected tables, indexes and FTS triggers", async () => {
    const file = tempDbFile();
    await (await openMigrated(file)).close();
    const objects = schemaObjects(file);
    const names = (type: string) => objects.filter((o) => o.type === type).map((o) => o.name);
    expect(names("table")).toEqual(
      expect.arrayContaining([
        "users",
        "listings",
        "api_keys",
        "messages",
        "reset_tokens",
        "email_verification_tokens",
        "mail_jobs",
        "sessions",
        "idempotency_keys",
        "events",
        "notification_settings",
        "notification_cursor",
        "saved_searches",
        "saved_search_matches",
        "saved_search_cursor",
        "listings_fts",
        "listings_text",
        "listings_title",
        "listings_words_cat",
        "listings_title_cat",
        "listing_category_keys",
        "__drizzle_migrations",
      ]),
    );
    expect(names("index")).toEqual(
      expect.arrayContaining([
        "users_email_unique",
        "listings_id_unique",
        "listings_status_id_idx",
        "listings_category_status_id_idx",
        "listings_user_id_id_idx",
        "listings_user_id_status_expires_at_idx",
        "api_keys_key_hash_unique",
        "api_keys_user_id_id_idx",
        "messages_receiver_id_id_idx",
        "messages_sender_id_id_idx",
        "messages_receiver_id_sender_id_listing_id_id_idx",
        "reset_tokens_user_id_idx",
        "email_verification_tokens_user_id_idx",
        "mail_jobs_status_next_attempt_at_id_idx",
        "mail_jobs_user_id_kind_created_at_idx",
        "mail_jobs_user_id_kind_ref_created_at_idx",
        "mail_jobs_pending_ref_unique",
        "sessions_user_id_idx",
        "sessions_expires_at_idx",
        "idempotency_keys_expires_at_idx",
        "events_id_unique",
        "events_user_id_seq_idx",
        "events_occurred_at_idx",
        "listings_status_price_id_idx",
        "listings_category_status_price_id_idx",
      ]),
    );
    expect(names("trigger").sort()).toEqual([
      "listings_by_category_after_delete",
      "listings_by_category_after_insert",
      "listings_by_category_after_update",
      "listings_delete_saved_search_matches",
      "listings_fts_after_delete",
      "listings_fts_after_insert",
      "listings_fts_after_update",
      "listings_text_after_delete",
      "listings_text_after_insert",
      "listings_text_after_update",
      "listings_title_after_delete",
      "listings_title_after_insert",
      "listings_title_after_update",
    ]);
  });

  it("are idempotent: applying twice, and after a reopen, changes nothing", async () => {
    const file = tempDbFile();
    const storage = await openMigrated(file);
    await storage.migrate();
    await storage.close();
    const before = schemaObjects(file);
    const reopened = openSqliteStorage({ file });
    await reopened.migrate();
    await reopened.close();
    expect(schemaObjects(file)).toEqual(before);
    expect(journalLength(file)).toBe(migrationFiles.length);
  });

  it("are safe when several processes migrate one fresh file at once", async () => {
    // The children load first and then start migrating at one agreed instant.
    const file = tempDbFile();
    const startAt = String(Date.now() + 4_000);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => runChild("./child-migrate.ts", [file, startAt])),
    );
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(journalLength(file)).toBe(migrationFiles.length);
  });

  it("upgrade a 1.1 database: its accounts stay, unproven, and its queued mail stays", async () => {
    // The migrations of 1.1 (everything before 0002), applied as 1.1 applied them.
    const { file, sqlite } = databaseBefore("0002_email-verification");
    const user = buildUser({ email: "before@example.com", tokenVersion: 4 });
    sqlite
      .prepare(
        "INSERT INTO users (id, email, display_name, account_type, password_hash, token_version, created_at) VALUES (?, ?, ?, 'personal', ?, 4, ?)",
      )
      .run(user.id, user.email, user.displayName, user.passwordHash, user.createdAt.getTime());
    const jobId = testId();
    sqlite
      .prepare(
        "INSERT INTO mail_jobs (id, user_id, kind, status, next_attempt_at, created_at) VALUES (?, ?, 'password_reset', 'pending', 0, 0)",
      )
      .run(jobId, user.id);
    sqlite.close();

    const storage = await openMigrated(file);
    try {
      expect(await storage.repositories.users.findById(user.id)).toEqual({
        ...user,
        emailVerifiedAt: null,
      });
      expect(await storage.repositories.mailQueue.findById(jobId)).toMatchObject({
        kind: "password_reset",
      });
      await storage.repositories.mailQueue.enqueue({
        id: testId(),
        userId: user.id,
        kind: "email_verification",
        createdAt: new Date(),
      });
      // The rebuilt mail table still cascades from users.
      expect(await storage.repositories.users.deleteCascade(user.id)).toBe(true);
      expect(await storage.repositories.mailQueue.findById(jobId)).toBeNull();
    } finally {
      await storage.close();
    }
    expect(journalLength(file)).toBe(migrationFiles.length);
  });
});
