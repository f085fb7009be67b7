import { DEFAULT_NOTIFICATION_SETTINGS } from "@psm/core";
import { buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

describePostgres("postgres notifications migration", () => {
  it("upgrades a database from before notifications: queued mail stays with no ref, message mail can be queued, settings default, the cursor starts at the last seq", async () => {
    const old = await databaseBefore("0014_notifications");
    try {
      const user = buildUser();
      await old.sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 0, ${user.createdAt.toISOString()})`;
      const jobId = crypto.randomUUID();
      await old.sql`insert into mail_jobs (id, user_id, kind, status, attempts, next_attempt_at, last_error, created_at)
        values (${jobId}, ${user.id}, 'webhook_disabled', 'pending', 2, '2026-01-01T00:00:01Z', 'busy', '2026-01-01T00:00:00Z')`;
      // Four events as the writer gives them; the sweep then took the newest. Its seq stays given
      // (the counter holds it), so the cursor starts past it.
      await old.sql`update event_sequence set last = 4 where id = 1`;
      for (const seq of [1, 2, 3, 4]) {
        await old.sql`insert into events (seq, id, type, user_id, occurred_at, data)
          values (${seq}, ${`evt_01JOLD${String(seq).padStart(20, "0")}`}, 'message.received', ${user.id}, now(), '{}')`;
      }
      await old.sql`delete from events where seq = 4`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        const repos = storage.repositories;
        expect(await repos.mailQueue.findById(jobId)).toEqual({
          id: jobId,
          userId: user.id,
          kind: "webhook_disabled",
          ref: null,
          status: "pending",
          attempts: 2,
          nextAttemptAt: new Date("2026-01-01T00:00:01Z"),
          lastError: "busy",
          createdAt: new Date("2026-01-01T00:00:00Z"),
          sentAt: null,
        });
        const message = {
          id: crypto.randomUUID(),
          userId: user.id,
          kind: "message_received" as const,
          ref: "listing/sender",
          createdAt: new Date("2026-01-02T00:00:00Z"),
        };
        expect(await repos.mailQueue.enqueueCoalesced(message, 60_000)).toBe(true);
        expect(await repos.mailQueue.findById(message.id)).toMatchObject({
          kind: "message_received",
          ref: "listing/sender",
          status: "pending",
          nextAttemptAt: message.createdAt,
        });
        await expect(
          old.sql`insert into mail_jobs (id, user_id, kind, status, next_attempt_at, created_at)
            values (${crypto.randomUUID()}, ${user.id}, 'no_such_kind', 'pending', now(), now())`,
        ).rejects.toMatchObject({ constraint_name: "mail_jobs_kind_check" });
        expect(await repos.notifications.get(user.id)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
        await expect(
          old.sql`insert into notification_settings (user_id, message_mail, saved_search_mail)
            values (${user.id}, 'weekly', 'daily')`,
        ).rejects.toMatchObject({ constraint_name: "notification_settings_message_mail_check" });
        expect(await repos.unitOfWork.run((unit) => unit.notifications.takeCursor())).toBe(4);
        // The fan-out's cursor is its own: 0013 seeded it at 0, before these events.
        expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(0);
        // The old queue still drains: the pending job is claimed with its ref (none).
        const claimed = await repos.mailQueue.claimDue(new Date("2026-01-02T00:00:00Z"), 10, 1000);
        expect(claimed.map((job) => [job.id, job.ref])).toEqual([
          [jobId, null],
          [message.id, "listing/sender"],
        ]);
        // The settings go with their user.
        await repos.notifications.set(user.id, { messageMail: "off", savedSearchMail: "off" });
        expect(await repos.users.deleteCascade(user.id)).toBe(true);
        const [left] = await old.sql<{ n: number }[]>`select count(*)::int as n from notification_settings`;
        expect(left?.n).toBe(0);
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });
});
