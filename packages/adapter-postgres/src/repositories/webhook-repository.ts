import { isUuid, MarketplaceError, type PageQuery, type Webhook, type WebhookRepository } from "@psm/core";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { type StoredSecret, webhooks } from "../schema-events.js";
import { countInt, idBefore, lockUser, pageLimit } from "./query-helpers.js";

type WebhookRow = typeof webhooks.$inferSelect;

function toStoredSecrets(secrets: Webhook["secrets"]): StoredSecret[] {
  return secrets.map((secret) => ({
    value: secret.value,
    expires_at: secret.expiresAt?.toISOString() ?? null,
  }));
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

/** The PostgreSQL WebhookRepository. */
export function createWebhookRepository(db: Db): WebhookRepository {
  return {
    // The user's row is locked first (lockUser: NO KEY UPDATE), so concurrent inserts for one
    // user queue there and each counts what the previous one committed.
    insertWithinLimit: (webhook, max) =>
      guarded(async () => {
        if (!isUuid(webhook.userId)) throw new MarketplaceError("user_not_found");
        return db.transaction(async (tx) => {
          await lockUser(tx, webhook.userId);
          const [held] = await tx
            .select({ n: countInt })
            .from(webhooks)
            .where(eq(webhooks.userId, webhook.userId));
          if ((held?.n ?? 0) >= max) return false;
          // A missing user fails the foreign key here: user_not_found.
          await tx.insert(webhooks).values({ ...webhook, secrets: toStoredSecrets(webhook.secrets) });
          return true;
        });
      }),
    findById: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
        return row === undefined ? null : toWebhook(row);
      }),
    listByUser: (userId: string, page: PageQuery) =>
      guarded(async () => {
        const before = idBefore(webhooks.id, page);
        if (!isUuid(userId)) return [];
        const rows = await db
          .select()
          .from(webhooks)
          .where(and(eq(webhooks.userId, userId), before))
          .orderBy(desc(webhooks.id))
          .limit(pageLimit(page));
        return rows.map(toWebhook);
      }),
    // One array parameter: one statement for any number of users.
    listEnabledFor: (userIds) =>
      guarded(async () => {
        const ids = userIds.filter(isUuid);
        if (ids.length === 0) return [];
        const rows = await db
          .select()
          .from(webhooks)
          .where(and(sql`${webhooks.userId} = any(${sql.param(ids)}::uuid[])`, eq(webhooks.enabled, true)));
        return rows.map(toWebhook);
      }),
    update: (webhook) =>
      guarded(async () => {
        if (!isUuid(webhook.id)) return false;
        const rows = await db
          .update(webhooks)
          .set({
            url: webhook.url,
            types: webhook.types,
            description: webhook.description,
            enabled: webhook.enabled,
            disabledReason: webhook.disabledReason,
            secrets: toStoredSecrets(webhook.secrets),
          })
          .where(eq(webhooks.id, webhook.id));
        return rows.count > 0;
      }),
    // One conditional UPDATE: of racing calls, the row lock lets one through and the others
    // re-check `enabled` on the row it committed, so only one answers true.
    disable: (id, reason) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const rows = await db
          .update(webhooks)
          .set({ enabled: false, disabledReason: reason })
          .where(and(eq(webhooks.id, id), eq(webhooks.enabled, true)));
        return rows.count > 0;
      }),
    // Its deliveries go by the foreign key's cascade, in the same statement.
    delete: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const rows = await db.delete(webhooks).where(eq(webhooks.id, id));
        return rows.count > 0;
      }),
  };
}
