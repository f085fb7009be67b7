import type { PageQuery, Webhook, WebhookRepository } from "@psm/core";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { type StoredSecret, webhooks } from "../schema-events.js";

type WebhookRow = typeof webhooks.$inferSelect;

function toStoredSecrets(secrets: Webhook["secrets"]): StoredSecret[] {
  return secrets.map((secret) => ({ value: secret.value, expires_at: secret.expiresAt?.getTime() ?? null }));
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    ...row,
    secrets: row.secrets.map((secret) => ({
      value: secret.value,
      expiresAt: secret.expires_at === null ? null : new Date(secret.expires_at),
    })),
  };
}

/** WebhookRepository on drizzle. */
export function createWebhookRepository(db: Db): WebhookRepository {
  return {
    // One statement: the count and the insert see the same table, and SQLite runs one writer at
    // a time (in any process), so concurrent inserts never pass the limit. A missing user fails
    // the foreign key: user_not_found.
    insertWithinLimit: (webhook, max) =>
      guarded(
        () =>
          db.run(sql`
            INSERT INTO webhooks (id, user_id, url, types, description, enabled, disabled_reason, secrets, created_at)
            SELECT ${webhook.id}, ${webhook.userId}, ${webhook.url}, ${JSON.stringify(webhook.types)},
              ${webhook.description}, ${webhook.enabled ? 1 : 0}, ${webhook.disabledReason},
              ${JSON.stringify(toStoredSecrets(webhook.secrets))}, ${webhook.createdAt.getTime()}
            WHERE (SELECT count(*) FROM webhooks WHERE user_id = ${webhook.userId}) < ${max}`).changes > 0,
      ),
    findById: (id) =>
      guarded(() => {
        const row = db.select().from(webhooks).where(eq(webhooks.id, id)).get();
        return row === undefined ? null : toWebhook(row);
      }),
    listByUser: (userId: string, page: PageQuery) =>
      guarded(() =>
        db
          .select()
          .from(webhooks)
          .where(
            and(
              eq(webhooks.userId, userId),
              page.before === undefined ? undefined : lt(webhooks.id, page.before),
            ),
          )
          .orderBy(desc(webhooks.id))
          .limit(Math.max(0, page.limit))
          .all()
          .map(toWebhook),
      ),
    // One JSON array parameter: one statement for any number of users (no variable limit).
    listEnabledFor: (userIds) =>
      guarded(() => {
        if (userIds.length === 0) return [];
        return db
          .select()
          .from(webhooks)
          .where(
            and(
              sql`${webhooks.userId} IN (SELECT value FROM json_each(${JSON.stringify(userIds)}))`,
              eq(webhooks.enabled, true),
            ),
          )
          .all()
          .map(toWebhook);
      }),
    update: (webhook) =>
      guarded(
        () =>
          db
            .update(webhooks)
            .set({
              url: webhook.url,
              types: webhook.types,
              description: webhook.description,
              enabled: webhook.enabled,
              disabledReason: webhook.disabledReason,
              secrets: toStoredSecrets(webhook.secrets),
            })
            .where(eq(webhooks.id, webhook.id))
            .run().changes > 0,
      ),
    // Conditional: of two racing calls only the one whose write found it enabled changes a row.
    disable: (id, reason) =>
      guarded(
        () =>
          db
            .update(webhooks)
            .set({ enabled: false, disabledReason: reason })
            .where(and(eq(webhooks.id, id), eq(webhooks.enabled, true)))
            .run().changes > 0,
      ),
    // Its deliveries go by the foreign key's cascade.
    delete: (id) => guarded(() => db.delete(webhooks).where(eq(webhooks.id, id)).run().changes > 0),
  };
}
