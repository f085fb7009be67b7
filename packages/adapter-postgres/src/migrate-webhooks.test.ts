import { buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

describePostgres("postgres webhooks migration", () => {
  it("upgrades a database from before webhooks: queued mail stays, the new kind fits, the fan-out starts at the last seq", async () => {
    const old = await databaseBefore("0013_webhooks");
    try {
      const user = buildUser();
      await old.sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 0, ${user.createdAt.toISOString()})`;
      const jobId = crypto.randomUUID();
      await old.sql`insert into mail_jobs (id, user_id, kind, status, attempts, next_attempt_at, last_error, created_at)
        values (${jobId}, ${user.id}, 'email_verification', 'pending', 2, '2026-01-01T00:00:01Z', 'busy', '2026-01-01T00:00:00Z')`;
      // Three events as the writer gives them; the sweep then took the newest. Its seq stays given
      // (the counter holds it), so the cursor starts past it.
      await old.sql`update event_sequence set last = 3 where id = 1`;
      for (const seq of [1, 2, 3]) {
        await old.sql`insert into events (seq, id, type, user_id, occurred_at, data)
          values (${seq}, ${`evt_01JOLD${String(seq).padStart(20, "0")}`}, 'listing.created', ${user.id}, now(), '{}')`;
      }
      await old.sql`delete from events where seq = 3`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        const repos = storage.repositories;
        expect(await repos.mailQueue.findById(jobId)).toEqual({
          id: jobId,
          userId: user.id,
          kind: "email_verification",
          ref: null,
          status: "pending",
          attempts: 2,
          nextAttemptAt: new Date("2026-01-01T00:00:01Z"),
          lastError: "busy",
          createdAt: new Date("2026-01-01T00:00:00Z"),
          sentAt: null,
        });
        const disabled = { id: crypto.randomUUID(), userId: user.id, createdAt: new Date() };
        expect(await repos.mailQueue.enqueue({ ...disabled, kind: "webhook_disabled" })).toBe(true);
        expect(await repos.mailQueue.findById(disabled.id)).toMatchObject({ kind: "webhook_disabled" });
        await expect(
          old.sql`insert into mail_jobs (id, user_id, kind, status, next_attempt_at, created_at)
            values (${crypto.randomUUID()}, ${user.id}, 'no_such_kind', 'pending', now(), now())`,
        ).rejects.toMatchObject({ constraint_name: "mail_jobs_kind_check" });
        expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(3);
        const fresh = {
          id: "evt_01JNEW00000000000000000000",
          type: "webhook.test" as const,
          userId: user.id,
          occurredAt: new Date("2026-01-02T00:00:00Z"),
          data: { webhook_id: "w" },
        };
        await repos.events.append([fresh]);
        expect(await repos.events.listAfter(3, 10)).toEqual([{ ...fresh, seq: 4 }]);
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });
});
