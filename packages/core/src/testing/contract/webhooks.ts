import { describe, expect, it } from "vitest";
import type { NewEvent } from "../../domain/event.js";
import type { User } from "../../domain/user.js";
import type { Webhook, WebhookDelivery } from "../../domain/webhook.js";
import { testId } from "../builders.js";
import { at, type ContractContext, MINUTE, newestFirst, seedUser, T0 } from "./context.js";

let serial = 0;

function webhookOf(user: User, offsetMs = 0, overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: testId(at(offsetMs)),
    userId: user.id,
    url: `https://hooks.example.com/${++serial}`,
    types: ["listing.created", "message.received"],
    description: "orders",
    enabled: true,
    disabledReason: null,
    secrets: [
      { value: "whsec_bmV3", expiresAt: null },
      { value: "whsec_b2xk", expiresAt: at(24 * 60 * MINUTE) },
    ],
    createdAt: at(offsetMs),
    ...overrides,
  };
}

function deliveryOf(
  webhook: Webhook,
  offsetMs = 0,
  overrides: Partial<WebhookDelivery> = {},
): WebhookDelivery {
  serial++;
  return {
    id: testId(at(offsetMs)),
    webhookId: webhook.id,
    eventId: `evt_01JWEBHOOK${String(serial).padStart(16, "0")}`,
    type: "listing.created",
    payload: `{"type":"listing.created","timestamp":"${at(offsetMs).toISOString()}","data":{"listing_id":"x${serial}"}}`,
    attempts: 0,
    state: "pending",
    lastStatus: null,
    lastError: null,
    nextAttemptAt: at(offsetMs),
    createdAt: at(offsetMs),
    ...overrides,
  };
}

function eventOf(user: User, offsetMs: number, type: NewEvent["type"] = "listing.created"): NewEvent {
  serial++;
  return {
    id: `evt_01JEVENTS${String(serial).padStart(17, "0")}`,
    type,
    userId: user.id,
    occurredAt: at(offsetMs),
    data: { listing_id: `l${serial}` },
  };
}

const PAGE = { limit: 100 };

/** Cases of webhooks, their deliveries and the fan-out cursor. */
export function webhookCases(ctx: ContractContext): void {
  describe("webhooks", () => {
    it("stores a webhook as given and finds it by id; an unknown id is null", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const webhook = webhookOf(owner);
      expect(await repos.webhooks.insertWithinLimit(webhook, 10)).toBe(true);
      expect(await repos.webhooks.findById(webhook.id)).toEqual(webhook);
      expect(await repos.webhooks.findById(testId(at(5)))).toBeNull();
    });

    it("refuses a webhook past the user's limit, counting only that user's", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const other = await seedUser(repos);
      await repos.webhooks.insertWithinLimit(webhookOf(other, 0), 2);
      expect(await repos.webhooks.insertWithinLimit(webhookOf(owner, 1), 2)).toBe(true);
      expect(await repos.webhooks.insertWithinLimit(webhookOf(owner, 2), 2)).toBe(true);
      const third = webhookOf(owner, 3);
      expect(await repos.webhooks.insertWithinLimit(third, 2)).toBe(false);
      expect(await repos.webhooks.findById(third.id)).toBeNull();
    });

    it("holds the limit when one user's inserts race", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => repos.webhooks.insertWithinLimit(webhookOf(owner, i), 5)),
      );
      expect(results.filter(Boolean)).toHaveLength(5);
      expect(await repos.webhooks.listByUser(owner.id, PAGE)).toHaveLength(5);
    });

    it("lists one user's webhooks newest first, in pages", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const other = await seedUser(repos);
      const mine = [webhookOf(owner, 0), webhookOf(owner, 1), webhookOf(owner, 2)];
      for (const webhook of [...mine, webhookOf(other, 3)])
        await repos.webhooks.insertWithinLimit(webhook, 10);
      const all = await repos.webhooks.listByUser(owner.id, PAGE);
      expect(all.map((row) => row.id)).toEqual(newestFirst(mine));
      const second = await repos.webhooks.listByUser(owner.id, { limit: 2, before: all[0]!.id });
      expect(second.map((row) => row.id)).toEqual(newestFirst(mine).slice(1));
    });

    it("lists the enabled webhooks of the given users only", async () => {
      const repos = ctx.repos();
      const a = await seedUser(repos);
      const b = await seedUser(repos);
      const c = await seedUser(repos);
      const on = webhookOf(a, 0);
      const off = webhookOf(a, 1, { enabled: false });
      const otherOn = webhookOf(b, 2);
      const notAsked = webhookOf(c, 3);
      for (const webhook of [on, off, otherOn, notAsked]) await repos.webhooks.insertWithinLimit(webhook, 10);
      const found = await repos.webhooks.listEnabledFor([a.id, b.id]);
      expect(found.map((row) => row.id).sort()).toEqual([on.id, otherOn.id].sort());
      expect(await repos.webhooks.listEnabledFor([])).toEqual([]);
    });

    it("updates the mutable fields and keeps owner and creation", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const webhook = webhookOf(owner);
      await repos.webhooks.insertWithinLimit(webhook, 10);
      const changed: Webhook = {
        ...webhook,
        url: "https://elsewhere.example.org/in",
        types: ["listing.deleted"],
        description: "",
        enabled: false,
        disabledReason: "because",
        secrets: [{ value: "whsec_c2Vjb25k", expiresAt: null }],
      };
      expect(await repos.webhooks.update(changed)).toBe(true);
      expect(await repos.webhooks.findById(webhook.id)).toEqual(changed);
      expect(await repos.webhooks.update({ ...changed, id: testId(at(9)) })).toBe(false);
    });

    it("turns a webhook off once: only the first disable answers true", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const webhook = webhookOf(owner);
      await repos.webhooks.insertWithinLimit(webhook, 10);
      expect(await repos.webhooks.disable(webhook.id, "410 Gone")).toBe(true);
      expect(await repos.webhooks.disable(webhook.id, "again")).toBe(false);
      expect(await repos.webhooks.findById(webhook.id)).toMatchObject({
        enabled: false,
        disabledReason: "410 Gone",
      });
      expect(await repos.webhooks.disable(testId(at(3)), "none")).toBe(false);
    });

    it("deletes a webhook with its deliveries; a user's deletion takes both", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const kept = await seedUser(repos);
      const gone = webhookOf(owner, 0);
      const other = webhookOf(owner, 1);
      const keptHook = webhookOf(kept, 2);
      for (const webhook of [gone, other, keptHook]) await repos.webhooks.insertWithinLimit(webhook, 10);
      await repos.webhookDeliveries.insertMany([
        deliveryOf(gone, 0),
        deliveryOf(other, 1),
        deliveryOf(keptHook, 2),
      ]);
      expect(await repos.webhooks.delete(gone.id)).toBe(true);
      expect(await repos.webhooks.delete(gone.id)).toBe(false);
      expect(await repos.webhookDeliveries.listByWebhook(gone.id, PAGE)).toEqual([]);
      await repos.users.deleteCascade(owner.id);
      expect(await repos.webhooks.findById(other.id)).toBeNull();
      expect(await repos.webhookDeliveries.listByWebhook(other.id, PAGE)).toEqual([]);
      expect(await repos.webhookDeliveries.listByWebhook(keptHook.id, PAGE)).toHaveLength(1);
    });
  });

  describe("webhook deliveries", () => {
    async function oneHook(): Promise<Webhook> {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const webhook = webhookOf(owner);
      await repos.webhooks.insertWithinLimit(webhook, 10);
      return webhook;
    }

    it("stores deliveries as given and lists them newest first, in pages", async () => {
      const repos = ctx.repos();
      const webhook = await oneHook();
      const rows = [deliveryOf(webhook, 0), deliveryOf(webhook, 1), deliveryOf(webhook, 2)];
      await repos.webhookDeliveries.insertMany(rows);
      const listed = await repos.webhookDeliveries.listByWebhook(webhook.id, PAGE);
      expect(listed).toEqual([rows[2], rows[1], rows[0]]);
      const later = await repos.webhookDeliveries.listByWebhook(webhook.id, {
        limit: 1,
        before: rows[2]!.id,
      });
      expect(later).toEqual([rows[1]]);
    });

    it("claims due pending deliveries oldest first, counting the attempt and leasing them", async () => {
      const repos = ctx.repos();
      const webhook = await oneHook();
      const first = deliveryOf(webhook, 0, { nextAttemptAt: at(0) });
      const second = deliveryOf(webhook, 1, { nextAttemptAt: at(MINUTE) });
      const notDue = deliveryOf(webhook, 2, { nextAttemptAt: at(10 * MINUTE) });
      const settled = deliveryOf(webhook, 3, { state: "succeeded", nextAttemptAt: null });
      await repos.webhookDeliveries.insertMany([first, second, notDue, settled]);
      const now = at(2 * MINUTE);
      const claimed = await repos.webhookDeliveries.claimDue(now, 10, MINUTE);
      expect(claimed.map((row) => row.id)).toEqual([first.id, second.id]);
      expect(claimed.every((row) => row.attempts === 1)).toBe(true);
      expect(claimed[0]!.nextAttemptAt).toEqual(at(3 * MINUTE));
      expect(await repos.webhookDeliveries.claimDue(now, 10, MINUTE)).toEqual([]);
      const again = await repos.webhookDeliveries.claimDue(at(3 * MINUTE), 1, MINUTE);
      expect(again.map((row) => [row.id, row.attempts])).toEqual([[first.id, 2]]);
    });

    it("never hands one delivery to two racing claimers", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const webhook = await oneHook();
      const rows = Array.from({ length: 30 }, (_, i) => deliveryOf(webhook, i, { nextAttemptAt: T0 }));
      await repos.webhookDeliveries.insertMany(rows);
      const claims = await Promise.all(
        Array.from({ length: 6 }, () => repos.webhookDeliveries.claimDue(at(MINUTE), 7, MINUTE)),
      );
      const claimed = claims.flat().map((row) => row.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.length).toBe(30);
    });

    it("records an attempt's result", async () => {
      const repos = ctx.repos();
      const webhook = await oneHook();
      const row = deliveryOf(webhook);
      await repos.webhookDeliveries.insertMany([row]);
      await repos.webhookDeliveries.record(row.id, {
        state: "pending",
        lastStatus: 503,
        lastError: "HTTP 503",
        nextAttemptAt: at(5 * MINUTE),
      });
      const [stored] = await repos.webhookDeliveries.listByWebhook(webhook.id, PAGE);
      expect(stored).toMatchObject({
        state: "pending",
        lastStatus: 503,
        lastError: "HTTP 503",
        nextAttemptAt: at(5 * MINUTE),
      });
      await repos.webhookDeliveries.record(row.id, {
        state: "succeeded",
        lastStatus: 204,
        lastError: null,
        nextAttemptAt: null,
      });
      const [done] = await repos.webhookDeliveries.listByWebhook(webhook.id, PAGE);
      expect(done).toMatchObject({
        state: "succeeded",
        lastStatus: 204,
        lastError: null,
        nextAttemptAt: null,
      });
    });

    it("reports the backlog: pending count and the oldest due instant", async () => {
      const repos = ctx.repos();
      const webhook = await oneHook();
      await repos.webhookDeliveries.insertMany([
        deliveryOf(webhook, 0, { nextAttemptAt: at(MINUTE) }),
        deliveryOf(webhook, 1, { nextAttemptAt: at(2 * MINUTE) }),
        deliveryOf(webhook, 2, { nextAttemptAt: at(60 * MINUTE) }),
        deliveryOf(webhook, 3, { state: "failed", nextAttemptAt: null }),
      ]);
      expect(await repos.webhookDeliveries.backlog(at(5 * MINUTE))).toEqual({
        pending: 3,
        oldestDueAt: at(MINUTE),
      });
      expect(await repos.webhookDeliveries.backlog(T0)).toEqual({ pending: 3, oldestDueAt: null });
    });

    it("sweeps deliveries created before the instant", async () => {
      const repos = ctx.repos();
      const webhook = await oneHook();
      const old = deliveryOf(webhook, 0);
      const young = deliveryOf(webhook, 10 * MINUTE);
      await repos.webhookDeliveries.insertMany([old, young]);
      expect(await repos.webhookDeliveries.sweep(at(MINUTE))).toBe(1);
      expect((await repos.webhookDeliveries.listByWebhook(webhook.id, PAGE)).map((row) => row.id)).toEqual([
        young.id,
      ]);
    });

    it("keeps the fan-out cursor: 0 at first, moved within a unit of work, taken back when it throws", async () => {
      const repos = ctx.repos();
      expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(0);
      await repos.unitOfWork.run(async (unit) => {
        await unit.webhookDeliveries.takeFanOutCursor();
        await unit.webhookDeliveries.advanceFanOutCursor(7);
      });
      await expect(
        repos.unitOfWork.run(async (unit) => {
          await unit.webhookDeliveries.takeFanOutCursor();
          await unit.webhookDeliveries.advanceFanOutCursor(9);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(7);
    });

    it("lets no two racing fan-outs take the same cursor value", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const taken = await Promise.all(
        Array.from({ length: 8 }, () =>
          repos.unitOfWork.run(async (unit) => {
            const cursor = await unit.webhookDeliveries.takeFanOutCursor();
            if (cursor === null) return null;
            await unit.webhookDeliveries.advanceFanOutCursor(cursor + 1);
            return cursor;
          }),
        ),
      );
      const values = taken.filter((value): value is number => value !== null);
      expect(new Set(values).size).toBe(values.length);
      expect(await repos.unitOfWork.run((unit) => unit.webhookDeliveries.takeFanOutCursor())).toBe(
        values.length,
      );
    });
  });

  describe("events for the fan-out", () => {
    it("lists everyone's events after a seq, oldest first; append gives the next seqs", async () => {
      const repos = ctx.repos();
      const a = await seedUser(repos);
      const b = await seedUser(repos);
      const first = eventOf(a, 0);
      const second = eventOf(b, 1);
      const third = eventOf(a, 2, "webhook.test");
      await repos.events.append([first, second]);
      await repos.events.append([third]);
      const all = await repos.events.listAfter(0, 100);
      expect(all.map((event) => event.id)).toEqual([first.id, second.id, third.id]);
      const after = await repos.events.listAfter(all[0]!.seq, 1);
      expect(after.map((event) => event.id)).toEqual([second.id]);
      expect(await repos.events.listAfter(all[2]!.seq, 100)).toEqual([]);
    });

    it("reads one user's events since an instant", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const early = eventOf(owner, 0);
      const late = eventOf(owner, 10 * MINUTE);
      await repos.events.append([early, late]);
      const since = await repos.events.listFor(owner.id, { after: 0, since: at(MINUTE), limit: 100 });
      expect(since.map((event) => event.id)).toEqual([late.id]);
    });
  });
}
