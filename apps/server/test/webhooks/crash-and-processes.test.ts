import { describe, expect, test } from "vitest";
import { signUpAndLogIn } from "../support/accounts.js";
import { BACKENDS, NAMED_BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { useHarness } from "../support/harness.js";
import { call, expectStatus, str } from "../support/http.js";
import { SHARED_JWT_SECRET, tail } from "../support/server-process.js";
import { waitFor } from "../support/wait.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

// At least once, never lost: events committed while the receiver is down are delivered after a
// SIGKILL and a restart; two processes on one PostgreSQL share the relay without sending one
// event twice.

reportSkippedPostgres("webhook deliveries survive a SIGKILL");

const LISTING = { title: "Audit", description: "Two weeks", category: "cybersecurity" };
// Retries a second apart, so a delivery refused while the receiver is down goes again soon.
const FAST_RETRIES = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "1,1,1,1,1,1,1,1,1,1" };

describe.each(NAMED_BACKENDS)("webhook deliveries across a SIGKILL, on $name", ({ backend }) => {
  const h = useHarness();

  test("every event committed before the kill is delivered after the restart", {
    timeout: 120_000,
  }, async () => {
    const database = await h.database(backend, "psm_webhook_crash");
    const dataDir = await h.dataDir();
    // The receiver's port is taken now and left closed until the restart: deliveries fail meanwhile.
    const probe = await startWebhookReceiver();
    const { port, url } = probe;
    await probe.close();
    const first = await h.server({ dataDir, env: { ...database.env, ...FAST_RETRIES }, stopWith: "SIGKILL" });
    const seller = await signUpAndLogIn(first.url, "crash@example.com", "seller-password");
    const hook = await call(first.url, "POST", "/api/webhooks", {
      token: seller.token,
      body: { url, types: ["listing.created", "listing.updated"] },
    });
    expectStatus(hook, 201);
    const listing = await call(first.url, "POST", "/api/listings", { token: seller.token, body: LISTING });
    const listingId = str(listing.body.listing?.id);
    for (let i = 0; i < 20; i++) {
      const edit = await call(first.url, "PATCH", `/api/listings/${listingId}`, {
        token: seller.token,
        body: { title: `Edit ${i}` },
      });
      expectStatus(edit, 200);
    }
    await first.stop("SIGKILL");

    const receiver = await startWebhookReceiver(port);
    h.defer(() => receiver.close());
    receiver.trust(str(hook.body.secret));
    const second = await h.server({ dataDir, env: { ...database.env, ...FAST_RETRIES } });
    const events = await call(second.url, "GET", "/api/events", { token: seller.token });
    const expected = (events.body.events as unknown as { id: string }[]).map((event) => event.id);
    expect(expected).toHaveLength(21);
    // A delivery in flight at the kill waits out its lease (60 s) before it goes again.
    await waitFor(
      "every event delivered",
      () => (expected.every((id) => receiver.received.some((r) => r.id === id)) ? true : undefined),
      { timeoutMs: 90_000, context: () => `${tail(first.output())}\n${tail(second.output())}` },
    );
    expect(receiver.received.every((r) => r.verifiedBy[0] === true)).toBe(true);
  });
});

if (!BACKENDS.includes("postgres")) {
  test.skip("two processes share the relay only on PostgreSQL; set TEST_DATABASE_URL to run", () => {});
} else {
  describe("two server processes on one PostgreSQL share the webhook relay", () => {
    const h = useHarness();

    test("500 events, each delivered exactly once in a normal run", { timeout: 180_000 }, async () => {
      const database = await h.database("postgres", "psm_webhook_pair");
      const receiver = await startWebhookReceiver();
      h.defer(() => receiver.close());
      const env = { ...database.env, WEBHOOK_ALLOW_PRIVATE: "true", JWT_SECRET: SHARED_JWT_SECRET };
      const [a, b] = await Promise.all([
        h.dataDir().then((dataDir) => h.server({ dataDir, env })),
        h.dataDir().then((dataDir) => h.server({ dataDir, env })),
      ]);
      const seller = await signUpAndLogIn(a!.url, "pair@example.com", "seller-password");
      const hook = await call(a!.url, "POST", "/api/webhooks", {
        token: seller.token,
        body: { url: receiver.url, types: ["listing.updated"] },
      });
      receiver.trust(str(hook.body.secret));
      const listing = await call(a!.url, "POST", "/api/listings", { token: seller.token, body: LISTING });
      const listingId = str(listing.body.listing?.id);
      // Ten writers at a time, alternating processes.
      for (let batch = 0; batch < 50; batch++) {
        await Promise.all(
          Array.from({ length: 10 }, async (_, i) => {
            const base = (batch + i) % 2 === 0 ? a!.url : b!.url;
            const edit = await call(base, "PATCH", `/api/listings/${listingId}`, {
              token: seller.token,
              body: { title: `Edit ${batch}-${i}` },
            });
            expectStatus(edit, 200);
          }),
        );
      }
      await waitFor("500 deliveries", () => (receiver.received.length >= 500 ? true : undefined), {
        timeoutMs: 120_000,
        context: () => `${tail(a!.output())}\n${tail(b!.output())}`,
      });
      // A moment for any duplicate to arrive: both relays run a round a second.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const ids = receiver.received.map((r) => r.id);
      expect(ids).toHaveLength(500);
      expect(new Set(ids).size).toBe(500);
      expect(receiver.received.every((r) => r.verifiedBy[0] === true)).toBe(true);
    });
  });
}
