import { describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, DELIVERY_LEASE_MS } from "../../domain/webhook.js";
import type { CreateWebhookInput } from "../../schemas/webhooks.js";
import { createTestDeps } from "../../testing/fakes/deps.js";
import { setupWith } from "../../testing/use-case-kit.js";

const LISTING = { title: "Audit", description: "Two weeks", category: "cybersecurity" } as const;
const HOOK: CreateWebhookInput = {
  url: "https://hooks.example.com/in",
  types: ["listing.created", "listing.deleted"],
};
const SECOND = 1000;

async function world(schedule?: number[]) {
  const kit = setupWith(createTestDeps({ settings: schedule ? { webhookRetrySchedule: schedule } : {} }));
  const owner = await kit.signUpAndLogIn("owner@example.com");
  const { webhook, secret } = await kit.market.webhooks.create(owner.actor, HOOK);
  return { ...kit, owner, webhook, secret, transport: kit.deps.webhookTransport };
}

describe("webhooks.relay: events become signed deliveries", () => {
  it("delivers a subscribed event once, with the event id and its Standard Webhooks payload", async () => {
    const { market, owner, transport, secret, webhook } = await world();
    const listing = await market.listings.create(owner.actor, LISTING);
    await market.listings.update(owner.actor, { id: listing.id, title: "Not subscribed" });
    expect(await market.webhooks.relay()).toEqual({
      fannedOut: 1,
      delivered: 1,
      retried: 0,
      failed: 0,
      more: false,
    });
    const [event] = await market.events.list(owner.actor, { types: "listing.created" });
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]).toMatchObject({ url: HOOK.url, id: event!.id, secrets: [secret] });
    expect(JSON.parse(transport.sent[0]!.payload)).toEqual({
      type: "listing.created",
      timestamp: event!.occurredAt.toISOString(),
      data: { listing_id: listing.id },
    });
    expect(await market.webhooks.relay()).toEqual({
      fannedOut: 0,
      delivered: 0,
      retried: 0,
      failed: 0,
      more: false,
    });
    const { items } = await market.webhooks.deliveries(owner.actor, { id: webhook.id });
    expect(items).toMatchObject([{ eventId: event!.id, state: "succeeded", attempts: 1, lastStatus: 200 }]);
  });

  it("says more may be waiting when a round read a full batch of events or claimed a full batch of deliveries", async () => {
    const { market, owner } = await world();
    for (let i = 0; i < 3; i++) await market.listings.create(owner.actor, LISTING);
    const relay = (options: { fanOutBatch?: number; batchSize?: number }) => market.webhooks.relay(options);
    expect(await relay({ fanOutBatch: 2, batchSize: 5 })).toMatchObject({
      fannedOut: 2,
      delivered: 2,
      more: true,
    });
    expect(await relay({ fanOutBatch: 2, batchSize: 5 })).toMatchObject({
      fannedOut: 1,
      delivered: 1,
      more: false,
    });
    for (let i = 0; i < 2; i++) await market.listings.create(owner.actor, LISTING);
    expect(await relay({ batchSize: 1 })).toMatchObject({ fannedOut: 2, delivered: 1, more: true });
    expect(await relay({ batchSize: 1 })).toMatchObject({ fannedOut: 0, delivered: 1, more: true });
    expect(await relay({ batchSize: 1 })).toMatchObject({ fannedOut: 0, delivered: 0, more: false });
  });

  it("sends nothing of events that happened before the webhook existed, nor of other users'", async () => {
    const kit = setupWith(createTestDeps());
    const owner = await kit.signUpAndLogIn("owner@example.com");
    const stranger = await kit.signUpAndLogIn("stranger@example.com");
    await kit.market.listings.create(owner.actor, LISTING);
    kit.deps.clock.advance(1);
    await kit.market.webhooks.create(owner.actor, HOOK);
    await kit.market.listings.create(stranger.actor, LISTING);
    expect((await kit.market.webhooks.relay()).fannedOut).toBe(0);
    expect(kit.deps.webhookTransport.sent).toEqual([]);
  });

  it("retries on the schedule with ±10 % jitter, then turns the webhook off and mails a proven owner once", async () => {
    const schedule = [5, 300, 1800];
    const { market, owner, transport, webhook, deps } = await world(schedule);
    await deps.repos.users.markEmailVerified(owner.user.id, deps.clock.now());
    await market.listings.create(owner.actor, LISTING);
    const failure = { kind: "failed", status: 500, error: "HTTP 500" } as const;
    transport.answer(failure, failure, failure, failure);
    for (const [i, seconds] of schedule.entries()) {
      const before = deps.clock.now().getTime();
      expect(await market.webhooks.relay()).toMatchObject({ retried: 1, failed: 0 });
      const [delivery] = (await market.webhooks.deliveries(owner.actor, { id: webhook.id })).items;
      const wait = delivery!.nextAttemptAt!.getTime() - before;
      expect(delivery).toMatchObject({ state: "pending", attempts: i + 1, lastStatus: 500 });
      expect(wait).toBeGreaterThanOrEqual(seconds * SECOND * 0.9);
      expect(wait).toBeLessThanOrEqual(seconds * SECOND * 1.1);
      deps.clock.advance(wait - 1);
      expect((await market.webhooks.relay()).retried).toBe(0);
      deps.clock.advance(1);
    }
    expect(await market.webhooks.relay()).toMatchObject({ failed: 1 });
    const off = await market.webhooks.get(owner.actor, { id: webhook.id });
    expect(off.enabled).toBe(false);
    expect(off.disabledReason).toContain("Every attempt failed (4)");
    await market.mail.dispatchDue();
    expect(deps.mailer.ofKind("webhook_disabled")).toMatchObject([
      { to: "owner@example.com", webhooks: [{ url: HOOK.url, reason: off.disabledReason }] },
    ]);
    expect(transport.sent).toHaveLength(4);
  });

  it("mails no unproven address when a webhook is turned off", async () => {
    const { market, transport, deps } = await world([]);
    const owner = await market.auth.logIn({ email: "owner@example.com", password: "secret-password" });
    await market.listings.create(await market.auth.authenticate({ bearer: owner.token }), LISTING);
    transport.answer({ kind: "failed", status: 500, error: "HTTP 500" });
    expect(await market.webhooks.relay()).toMatchObject({ failed: 1 });
    await market.mail.dispatchDue();
    expect(deps.mailer.ofKind("webhook_disabled")).toEqual([]);
  });

  it("waits for a later Retry-After than the schedule asks", async () => {
    const { market, owner, transport, webhook, deps } = await world([5]);
    await market.listings.create(owner.actor, LISTING);
    transport.answer({ kind: "failed", status: 503, error: "HTTP 503", retryAfterMs: 3600 * SECOND });
    const before = deps.clock.now().getTime();
    await market.webhooks.relay();
    const [delivery] = (await market.webhooks.deliveries(owner.actor, { id: webhook.id })).items;
    expect(delivery!.nextAttemptAt!.getTime() - before).toBe(3600 * SECOND);
  });

  it("turns the webhook off at once on 410 Gone and fails what was still pending for it", async () => {
    const { market, owner, transport, webhook } = await world();
    await market.listings.create(owner.actor, LISTING);
    await market.listings.create(owner.actor, { ...LISTING, title: "Second" });
    transport.answer({ kind: "gone", status: 410 });
    const report = await market.webhooks.relay({ batchSize: 1 });
    expect(report).toMatchObject({ fannedOut: 2, delivered: 0, failed: 1 });
    const off = await market.webhooks.get(owner.actor, { id: webhook.id });
    expect(off).toMatchObject({ enabled: false, disabledReason: "The receiver answered 410 Gone" });
    await market.webhooks.relay();
    const { items } = await market.webhooks.deliveries(owner.actor, { id: webhook.id });
    expect(items.map((d) => [d.state, d.lastError])).toEqual([
      ["failed", "the webhook is turned off"],
      ["failed", "the receiver answered 410 Gone"],
    ]);
    expect(transport.sent).toHaveLength(1);
  });

  it("a test goes to the tested webhook alone, whatever its types", async () => {
    const { market, owner, transport, webhook } = await world();
    const { webhook: other } = await market.webhooks.create(owner.actor, {
      ...HOOK,
      url: "https://b.example.com/",
    });
    const { eventId } = await market.webhooks.test(owner.actor, { id: webhook.id });
    await market.webhooks.relay();
    expect(transport.sent.map((d) => [d.url, d.id])).toEqual([[HOOK.url, eventId]]);
    expect(JSON.parse(transport.sent[0]!.payload)).toMatchObject({
      type: "webhook.test",
      data: { webhook_id: webhook.id },
    });
    expect((await market.webhooks.deliveries(owner.actor, { id: other.id })).items).toEqual([]);
  });

  it("signs with both secrets during a rotation's grace, then with the new one alone", async () => {
    const { market, owner, transport, webhook, secret, deps } = await world();
    const { secret: fresh } = await market.webhooks.rotateSecret(owner.actor, { id: webhook.id });
    await market.webhooks.test(owner.actor, { id: webhook.id });
    await market.webhooks.relay();
    expect(transport.sent[0]!.secrets).toEqual([fresh, secret]);
    deps.clock.advance(24 * 3600 * SECOND);
    await market.webhooks.test(owner.actor, { id: webhook.id });
    await market.webhooks.relay();
    expect(transport.sent[1]!.secrets).toEqual([fresh]);
  });

  it("replays matching events since an instant with their original ids", async () => {
    const { market, owner, transport, webhook, deps } = await world();
    const since = deps.clock.now();
    await market.listings.create(owner.actor, LISTING);
    await market.webhooks.relay();
    const first = transport.sent[0]!.id;
    expect(await market.webhooks.replay(owner.actor, { id: webhook.id, since: since.toISOString() })).toEqual(
      {
        queued: 1,
        more: false,
      },
    );
    await market.webhooks.relay();
    expect(transport.sent.map((d) => d.id)).toEqual([first, first]);
  });

  it("leases a claimed delivery: a relay that died mid-send is retried after the lease, not before", async () => {
    const { market, owner, transport, deps } = await world();
    await market.listings.create(owner.actor, LISTING);
    await market.webhooks.relay({ batchSize: 0 });
    const [claimed] = await deps.repos.webhookDeliveries.claimDue(deps.clock.now(), 10, DELIVERY_LEASE_MS);
    expect(claimed).toBeDefined();
    expect((await market.webhooks.relay()).delivered).toBe(0);
    deps.clock.advance(DELIVERY_LEASE_MS);
    expect((await market.webhooks.relay()).delivered).toBe(1);
    expect(transport.sent).toHaveLength(1);
  });

  it("uses the decisions.md schedule by default", () => {
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 86400]);
  });
});
