import type { Repositories, Webhook, WebhookDelivery } from "@psm/core";
import { buildUser, testId } from "@psm/core/testing";
import { expect, it } from "vitest";
import { lockWaiters } from "../test/batch-support.js";
import { describePostgres } from "../test/hooks.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const PAGE = { limit: 10 };

async function twoWebhooks(repos: Repositories): Promise<[Webhook, Webhook]> {
  const user = buildUser();
  await repos.users.insert(user);
  const hook = (n: number): Webhook => ({
    id: testId(new Date(NOW.getTime() + n)),
    userId: user.id,
    url: `https://hooks.example.com/${n}`,
    types: ["listing.created"],
    description: "",
    enabled: true,
    disabledReason: null,
    secrets: [{ value: "whsec_dGVzdA==", expiresAt: null }],
    createdAt: NOW,
  });
  const pair: [Webhook, Webhook] = [hook(0), hook(1)];
  for (const webhook of pair) await repos.webhooks.insertWithinLimit(webhook, 10);
  return pair;
}

function deliveryTo(webhook: Webhook, n: number): WebhookDelivery {
  return {
    id: testId(new Date(NOW.getTime() + 100 + n)),
    webhookId: webhook.id,
    eventId: `evt_01JRACE${String(n).padStart(19, "0")}`,
    type: "listing.created",
    payload: "{}",
    attempts: 0,
    state: "pending",
    lastStatus: null,
    lastError: null,
    nextAttemptAt: NOW,
    createdAt: NOW,
  };
}

describePostgres("postgres webhook deliveries", (ctx) => {
  for (const ending of ["commit", "rollback"] as const) {
    it(`insertMany waits for a running delete of one webhook, then keeps the other's rows (delete: ${ending})`, async () => {
      await ctx.database().truncate();
      const repos = ctx.storage().repositories;
      const [gone, kept] = await twoWebhooks(repos);
      const deleter = await ctx.connection().sql.reserve();
      try {
        await deleter`begin`;
        await deleter`delete from webhooks where id = ${gone.id}`;
        const inserting = repos.webhookDeliveries.insertMany([deliveryTo(gone, 0), deliveryTo(kept, 1)]);
        // The insert holds the webhooks it writes for (KEY SHARE) and so waits for the delete.
        await lockWaiters(ctx.connection(), 1);
        await deleter.unsafe(ending);
        await inserting;
      } finally {
        deleter.release();
      }
      expect(await repos.webhookDeliveries.listByWebhook(kept.id, PAGE)).toHaveLength(1);
      expect(await repos.webhookDeliveries.listByWebhook(gone.id, PAGE)).toHaveLength(
        ending === "commit" ? 0 : 1,
      );
    });
  }

  it("takeFanOutCursor answers null at once while another transaction holds the cursor", async () => {
    await ctx.database().truncate();
    const repos = ctx.storage().repositories;
    const holder = await ctx.connection().sql.reserve();
    try {
      await holder`begin`;
      await holder`select last_seq from webhook_fanout for update`;
      expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBeNull();
      await holder`rollback`;
    } finally {
      holder.release();
    }
    expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(0);
  });

  it("takeFanOutCursor fails loudly when the cursor's row is gone, rather than report it taken", async () => {
    await ctx.database().truncate();
    const repos = ctx.storage().repositories;
    await ctx.connection().sql`delete from webhook_fanout`;
    await expect(
      repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor()),
    ).rejects.toMatchObject({ code: "internal_error" });
    await ctx.database().truncate();
  });
});
