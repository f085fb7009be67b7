import { DEFAULT_NOTIFICATION_SETTINGS } from "@psm/core";
import { buildUser } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";
import { openReadOnly } from "./testing/index.js";

afterAll(removeTempDbs);

it("upgrade a database from before notifications: queued mail stays with no ref, message mail can be queued, settings default, the cursor starts at the last seq", async () => {
  const { file, sqlite } = databaseBefore("0011_notifications");
  const user = buildUser();
  insertOldUser(sqlite, user);
  const jobId = "0190f5a0-0000-7000-8000-000000000001";
  sqlite
    .prepare(
      "INSERT INTO mail_jobs (id, user_id, kind, status, attempts, next_attempt_at, last_error, created_at) VALUES (?, ?, 'webhook_disabled', 'pending', 2, 1000, 'busy', 900)",
    )
    .run(jobId, user.id);
  const sentId = "0190f5a0-0000-7000-8000-000000000002";
  sqlite
    .prepare(
      "INSERT INTO mail_jobs (id, user_id, kind, status, attempts, next_attempt_at, created_at, sent_at) VALUES (?, ?, 'password_reset', 'sent', 1, 500, 400, 600)",
    )
    .run(sentId, user.id);
  const insertEvent = sqlite.prepare(
    "INSERT INTO events (id, type, user_id, occurred_at, data) VALUES (?, 'message.received', ?, 1000, '{}')",
  );
  for (const n of [1, 2, 3, 4]) insertEvent.run(`evt_01JOLD${String(n).padStart(20, "0")}`, user.id);
  // The sweep took the newest: its seq is still given (AUTOINCREMENT), so the cursor starts past it.
  sqlite.prepare("DELETE FROM events WHERE seq = 4").run();
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const repos = storage.repositories;
    expect(await repos.mailQueue.findById(jobId)).toEqual({
      id: jobId,
      userId: user.id,
      kind: "webhook_disabled",
      ref: null,
      status: "pending",
      attempts: 2,
      nextAttemptAt: new Date(1000),
      lastError: "busy",
      createdAt: new Date(900),
      sentAt: null,
    });
    expect(await repos.mailQueue.findById(sentId)).toMatchObject({
      ref: null,
      status: "sent",
      sentAt: new Date(600),
    });
    const message = {
      id: "0190f5a0-0000-7000-8000-000000000003",
      userId: user.id,
      kind: "message_received" as const,
      ref: "listing/sender",
      createdAt: new Date(2000),
    };
    expect(await repos.mailQueue.enqueueCoalesced(message, 60_000)).toBe(true);
    expect(await repos.mailQueue.findById(message.id)).toMatchObject({
      kind: "message_received",
      ref: "listing/sender",
      status: "pending",
      nextAttemptAt: new Date(2000),
    });
    expect(await repos.notifications.get(user.id)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    expect(await repos.unitOfWork.run((unit) => unit.notifications.takeCursor())).toBe(4);
    // The fan-out's cursor is its own: 0010 seeded it at 0, before these events.
    expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(0);
    // The old queue still drains: the pending job is claimed with its ref (none).
    const claimed = await repos.mailQueue.claimDue(new Date(2000), 10, 1000);
    expect(claimed.map((job) => [job.id, job.ref])).toEqual([
      [jobId, null],
      [message.id, "listing/sender"],
    ]);
  } finally {
    await storage.close();
  }

  // The rebuilt mail_jobs kept its indexes and its foreign key, and gained the new ones.
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
        "mail_jobs_user_id_kind_ref_created_at_idx",
        "mail_jobs_pending_ref_unique",
      ]),
    );
    const keys = upgraded.prepare("SELECT * FROM pragma_foreign_key_list('mail_jobs')").all();
    expect(keys).toMatchObject([{ table: "users", from: "user_id", on_delete: "CASCADE" }]);
    const settingsKeys = upgraded
      .prepare("SELECT * FROM pragma_foreign_key_list('notification_settings')")
      .all();
    expect(settingsKeys).toMatchObject([{ table: "users", from: "user_id", on_delete: "CASCADE" }]);
    expect(upgraded.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
  } finally {
    upgraded.close();
  }
});
