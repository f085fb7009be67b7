import { buildUser } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";
import { openReadOnly } from "./testing/index.js";

afterAll(removeTempDbs);

it("upgrade a database from before webhooks: queued mail stays, the new kind fits, the fan-out starts at the last seq", async () => {
  const { file, sqlite } = databaseBefore("0010_webhooks");
  const user = buildUser();
  insertOldUser(sqlite, user);
  const jobId = "0190f5a0-0000-7000-8000-000000000001";
  sqlite
    .prepare(
      "INSERT INTO mail_jobs (id, user_id, kind, status, attempts, next_attempt_at, last_error, created_at) VALUES (?, ?, 'email_verification', 'pending', 2, 1000, 'busy', 900)",
    )
    .run(jobId, user.id);
  const insertEvent = sqlite.prepare(
    "INSERT INTO events (id, type, user_id, occurred_at, data) VALUES (?, 'listing.created', ?, 1000, '{}')",
  );
  for (const n of [1, 2, 3]) insertEvent.run(`evt_01JOLD${String(n).padStart(20, "0")}`, user.id);
  // The sweep took the newest: its seq is still given (AUTOINCREMENT), so the cursor starts past it.
  sqlite.prepare("DELETE FROM events WHERE seq = 3").run();
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const repos = storage.repositories;
    expect(await repos.mailQueue.findById(jobId)).toEqual({
      id: jobId,
      userId: user.id,
      kind: "email_verification",
      ref: null,
      status: "pending",
      attempts: 2,
      nextAttemptAt: new Date(1000),
      lastError: "busy",
      createdAt: new Date(900),
      sentAt: null,
    });
    const disabled = { id: "0190f5a0-0000-7000-8000-000000000002", userId: user.id, createdAt: new Date() };
    expect(await repos.mailQueue.enqueue({ ...disabled, kind: "webhook_disabled" })).toBe(true);
    expect(await repos.mailQueue.findById(disabled.id)).toMatchObject({ kind: "webhook_disabled" });
    expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(3);
    const fresh = {
      id: "evt_01JNEW00000000000000000000",
      type: "webhook.test" as const,
      userId: user.id,
      occurredAt: new Date(2000),
      data: { webhook_id: "w" },
    };
    await repos.events.append([fresh]);
    expect(await repos.events.listAfter(3, 10)).toEqual([{ ...fresh, seq: 4 }]);
  } finally {
    await storage.close();
  }

  // The rebuilt mail_jobs kept its indexes and its foreign key.
  const upgraded = openReadOnly(file);
  try {
    const indexes = upgraded
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'mail_jobs'")
      .pluck()
      .all();
    expect(indexes).toEqual(
      expect.arrayContaining([
        "mail_jobs_status_next_attempt_at_id_idx",
        "mail_jobs_user_id_kind_created_at_idx",
      ]),
    );
    const keys = upgraded.prepare("SELECT * FROM pragma_foreign_key_list('mail_jobs')").all();
    expect(keys).toMatchObject([{ table: "users", from: "user_id", on_delete: "CASCADE" }]);
    expect(upgraded.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
  } finally {
    upgraded.close();
  }
});
