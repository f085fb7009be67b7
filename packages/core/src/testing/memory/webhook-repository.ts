import type { PageQuery } from "../../domain/page.js";
import type { Webhook, WebhookDelivery } from "../../domain/webhook.js";
import type {
  DeliveryResult,
  WebhookDeliveryRepository,
  WebhookRepository,
} from "../../ports/webhook-repository.js";
import { backlogOf, copy, copyOrNull, insertNew, type MemoryState, pageById, requireUser } from "./state.js";

/** The in-memory WebhookRepository. */
export function createMemoryWebhookRepository(state: MemoryState): WebhookRepository {
  const { webhooks } = state;
  return {
    async insertWithinLimit(webhook: Webhook, max: number) {
      requireUser(state, webhook.userId);
      const held = [...webhooks.values()].filter((row) => row.userId === webhook.userId).length;
      if (held >= max) return false;
      insertNew(webhooks, webhook.id, copy(webhook));
      return true;
    },
    async findById(id: string) {
      return copyOrNull(webhooks.get(id));
    },
    async listByUser(userId: string, page: PageQuery) {
      return pageById(
        [...webhooks.values()].filter((row) => row.userId === userId),
        page,
      );
    },
    async listEnabledFor(userIds: readonly string[]) {
      const wanted = new Set(userIds);
      return [...webhooks.values()].filter((row) => row.enabled && wanted.has(row.userId)).map(copy);
    },
    async update(webhook: Webhook) {
      const stored = webhooks.get(webhook.id);
      if (!stored) return false;
      webhooks.set(webhook.id, { ...copy(webhook), userId: stored.userId, createdAt: stored.createdAt });
      return true;
    },
    async disable(id: string, reason: string) {
      const stored = webhooks.get(id);
      if (!stored?.enabled) return false;
      webhooks.set(id, { ...stored, enabled: false, disabledReason: reason });
      return true;
    },
    async delete(id: string) {
      if (!webhooks.delete(id)) return false;
      for (const [key, row] of state.webhookDeliveries)
        if (row.webhookId === id) state.webhookDeliveries.delete(key);
      return true;
    },
  };
}

const CURSOR = "cursor";

/** The in-memory WebhookDeliveryRepository. */
export function createMemoryWebhookDeliveryRepository(state: MemoryState): WebhookDeliveryRepository {
  const deliveries = state.webhookDeliveries;
  return {
    async takeFanOutCursor() {
      return state.fanOutCursor.get(CURSOR) ?? 0;
    },
    async advanceFanOutCursor(seq: number) {
      state.fanOutCursor.set(CURSOR, seq);
    },
    async insertMany(rows: readonly WebhookDelivery[]) {
      for (const row of rows) {
        if (!state.webhooks.has(row.webhookId)) continue;
        insertNew(deliveries, row.id, copy(row));
      }
    },
    async claimDue(now: Date, limit: number, leaseMs: number) {
      const due = [...deliveries.values()]
        .filter((row) => row.state === "pending" && row.nextAttemptAt !== null && row.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, limit);
      for (const row of due) {
        row.attempts++;
        row.nextAttemptAt = new Date(now.getTime() + leaseMs);
      }
      return due.map(copy);
    },
    async record(id: string, result: DeliveryResult) {
      const row = deliveries.get(id);
      if (row) Object.assign(row, copy(result));
    },
    async listByWebhook(webhookId: string, page: PageQuery) {
      return pageById(
        [...deliveries.values()].filter((row) => row.webhookId === webhookId),
        page,
      );
    },
    async backlog(now: Date) {
      const pending = [...deliveries.values()].filter((row) => row.state === "pending");
      return backlogOf(
        pending.map((row) => row.nextAttemptAt),
        now,
      );
    },
    async sweep(before: Date) {
      let removed = 0;
      for (const [key, row] of deliveries) {
        if (row.createdAt.getTime() < before.getTime()) {
          deliveries.delete(key);
          removed++;
        }
      }
      return removed;
    },
  };
}
