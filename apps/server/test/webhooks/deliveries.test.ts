import { describe, expect, test } from "vitest";
import { signUpAndLogIn } from "../support/accounts.js";
import { NAMED_BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { useHarness } from "../support/harness.js";
import { call, expectError, expectStatus, str } from "../support/http.js";
import { tail } from "../support/server-process.js";
import { waitFor } from "../support/wait.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

// Webhooks end to end: the compiled server's relay POSTs to a real local receiver, which verifies
// every delivery with the standardwebhooks library. The receiver is on 127.0.0.1, so these servers
// run with WEBHOOK_ALLOW_PRIVATE=true; the refusal of private addresses runs without it.

reportSkippedPostgres("webhook deliveries end to end");

const LISTING = { title: "Audit", description: "Two weeks", category: "cybersecurity" };

describe.each(NAMED_BACKENDS)("webhooks on $name", ({ backend }) => {
  const h = useHarness();

  test("every delivery verifies; during a rotation both secrets do; a test reaches only its webhook", {
    timeout: 180_000,
  }, async () => {
    const database = await h.database(backend, "psm_webhooks");
    const receiver = await startWebhookReceiver();
    h.defer(() => receiver.close());
    const server = await h.server({
      dataDir: await h.dataDir(),
      env: { ...database.env, WEBHOOK_ALLOW_PRIVATE: "true" },
    });
    const context = () => tail(server.output());
    const seller = await signUpAndLogIn(server.url, "seller@example.com", "seller-password");
    const buyer = await signUpAndLogIn(server.url, "buyer@example.com", "buyer-password");

    const created = await call(server.url, "POST", "/api/webhooks", {
      token: seller.token,
      body: { url: receiver.url, types: ["listing.created", "listing.updated", "message.received"] },
    });
    expectStatus(created, 201);
    const webhookId = str(created.body.webhook?.id);
    const first = str(created.body.secret);
    receiver.trust(first);

    const listing = await call(server.url, "POST", "/api/listings", { token: seller.token, body: LISTING });
    expectStatus(listing, 201);
    const listingId = str(listing.body.listing?.id);
    const sent = await call(server.url, "POST", "/api/messages", {
      token: buyer.token,
      body: { listing_id: listingId, receiver_id: seller.id, content: "Is March free?" },
    });
    expectStatus(sent, 201);
    await waitFor("two deliveries", () => (receiver.received.length >= 2 ? true : undefined), { context });
    const events = await call(server.url, "GET", "/api/events", { token: seller.token });
    const byType = new Map(
      (events.body.events as unknown as { id: string; type: string }[]).map((event) => [
        event.type,
        event.id,
      ]),
    );
    expect(receiver.received.map((r) => [r.type, r.id]).sort()).toEqual(
      [
        ["listing.created", byType.get("listing.created")],
        ["message.received", byType.get("message.received")],
      ].sort(),
    );
    expect(receiver.received.every((r) => r.verifiedBy[0] === true && r.signatures === 1)).toBe(true);

    const rotated = await call(server.url, "POST", `/api/webhooks/${webhookId}/rotate-secret`, {
      token: seller.token,
    });
    expectStatus(rotated, 201);
    const second = str(rotated.body.secret);
    receiver.trust(first, second);
    const edit = await call(server.url, "PATCH", `/api/listings/${listingId}`, {
      token: seller.token,
      body: { title: "Audit, revised" },
    });
    expectStatus(edit, 200);
    const test = await call(server.url, "POST", `/api/webhooks/${webhookId}/test`, { token: seller.token });
    expectStatus(test, 202);
    await waitFor("two more deliveries", () => (receiver.received.length >= 4 ? true : undefined), {
      context,
    });
    const during = receiver.received.slice(2);
    expect(during.map((r) => r.type).sort()).toEqual(["listing.updated", "webhook.test"]);
    for (const delivery of during) {
      expect(delivery.signatures).toBe(2);
      expect(delivery.verifiedBy).toEqual([true, true]);
    }
    expect(during.find((r) => r.type === "webhook.test")?.id).toBe(str(test.body.event_id));

    const log = await call(server.url, "GET", `/api/webhooks/${webhookId}/deliveries`, {
      token: seller.token,
    });
    expectStatus(log, 200);
    const deliveries = log.body.deliveries as unknown as {
      state: string;
      attempts: number;
      last_status: number;
    }[];
    expect(deliveries).toHaveLength(4);
    expect(
      deliveries.every((d) => d.state === "succeeded" && d.attempts === 1 && d.last_status === 204),
    ).toBe(true);

    // Replay: the same ids again, still verifying.
    const replay = await call(server.url, "POST", `/api/webhooks/${webhookId}/replay`, {
      token: seller.token,
      body: { since: "2020-01-01T00:00:00Z" },
    });
    expectStatus(replay, 202);
    expect(replay.body).toEqual({ queued: 4, more: false });
    await waitFor("the replay", () => (receiver.received.length >= 8 ? true : undefined), { context });
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids.slice(4))).toEqual(new Set(ids.slice(0, 4)));
    expect(receiver.received.every((r) => r.verifiedBy.some(Boolean))).toBe(true);

    // Another user sees none of it.
    expectError(
      await call(server.url, "GET", `/api/webhooks/${webhookId}`, { token: buyer.token }),
      404,
      "webhook_not_found",
    );
  });

  test("410 turns the webhook off at once; nothing more is sent to it", { timeout: 180_000 }, async () => {
    const database = await h.database(backend, "psm_webhooks_gone");
    const receiver = await startWebhookReceiver();
    h.defer(() => receiver.close());
    receiver.answerWith(410);
    const server = await h.server({
      dataDir: await h.dataDir(),
      env: { ...database.env, WEBHOOK_ALLOW_PRIVATE: "true" },
    });
    const seller = await signUpAndLogIn(server.url, "gone@example.com", "seller-password");
    const created = await call(server.url, "POST", "/api/webhooks", {
      token: seller.token,
      body: { url: receiver.url, types: ["listing.created"] },
    });
    const webhookId = str(created.body.webhook?.id);
    await call(server.url, "POST", "/api/listings", { token: seller.token, body: LISTING });
    const off = await waitFor("the webhook to be turned off", async () => {
      const reply = await call(server.url, "GET", `/api/webhooks/${webhookId}`, { token: seller.token });
      return (reply.body.webhook as { enabled?: unknown } | undefined)?.enabled === false
        ? reply.body.webhook
        : undefined;
    });
    expect(off.disabled_reason).toBe("The receiver answered 410 Gone");
    await call(server.url, "POST", "/api/listings", {
      token: seller.token,
      body: { ...LISTING, title: "Second" },
    });
    const test = await call(server.url, "POST", `/api/webhooks/${webhookId}/test`, { token: seller.token });
    expectError(test, 400, "invalid_input");
    expect(receiver.received).toHaveLength(1);
  });
});

describe("webhook URLs that reach private addresses are refused (WEBHOOK_ALLOW_PRIVATE off)", () => {
  const h = useHarness();

  test("loopback, private, link-local and metadata URLs, written in any form, are 400 webhook_url_forbidden", async () => {
    const server = await h.server({ dataDir: await h.dataDir() });
    const user = await signUpAndLogIn(server.url, "ssrf@example.com", "ssrf-password");
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "http://[::1]/hook",
      "http://10.0.0.7/hook",
      "http://192.168.1.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://2130706433/hook",
      "http://0x7f.1/hook",
      "http://[::ffff:7f00:1]/hook",
    ]) {
      const reply = await call(server.url, "POST", "/api/webhooks", {
        token: user.token,
        body: { url, types: ["listing.created"] },
      });
      expectError(reply, 400, "webhook_url_forbidden");
    }
    const list = await call(server.url, "GET", "/api/webhooks", { token: user.token });
    expect(list.body.count).toBe(0);
  });
});
