import type { OutgoingDelivery } from "@psm/core";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startWebhookRelay, type WebhookRelayOwner, type WebhookRelayReport } from "./relay.js";
import { startReceiver } from "./test-support/receivers.js";
import { createWebhookTransport } from "./webhook-transport.js";

const NOTHING: WebhookRelayReport = { fannedOut: 0, delivered: 0, retried: 0, failed: 0 };

/** An owner whose rounds answer the given reports in turn, then NOTHING. */
function ownerAnswering(...reports: (WebhookRelayReport | Error)[]) {
  let calls = 0;
  const owner: WebhookRelayOwner = {
    webhooks: {
      relay: async () => {
        calls++;
        const next = reports.shift() ?? NOTHING;
        if (next instanceof Error) throw next;
        return next;
      },
    },
  };
  return { owner, calls: () => calls };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("startWebhookRelay", () => {
  it("relays every interval and reports only the rounds that did something", async () => {
    vi.useFakeTimers();
    const busy = { fannedOut: 3, delivered: 2, retried: 1, failed: 0 };
    const { owner, calls } = ownerAnswering(NOTHING, busy, { ...NOTHING, failed: 1 });
    const reports: WebhookRelayReport[] = [];
    const relay = startWebhookRelay(owner, { intervalMs: 100, onReport: (r) => reports.push(r) });
    await vi.advanceTimersByTimeAsync(99);
    expect(calls()).toBe(0);
    await vi.advanceTimersByTimeAsync(201);
    expect(calls()).toBe(3);
    expect(reports).toEqual([busy, { ...NOTHING, failed: 1 }]);
    await relay.stop();
  });

  it("runs the next round at once while a round says more is waiting", async () => {
    const full = { ...NOTHING, fannedOut: 500, more: true };
    const { owner, calls } = ownerAnswering(full, full, { ...NOTHING, fannedOut: 3 });
    let resolve = () => {};
    const drained = new Promise<void>((done) => {
      resolve = done;
    });
    const reports: WebhookRelayReport[] = [];
    // An interval no test waits for: only the rounds' own follow-ups run the second and third.
    const relay = startWebhookRelay(owner, {
      intervalMs: 3_600_000,
      onReport: (report) => {
        reports.push(report);
        if (reports.length === 3) resolve();
      },
    });
    relay.poke();
    await drained;
    expect(reports.map((report) => report.fannedOut)).toEqual([500, 500, 3]);
    expect(calls()).toBe(3);
    await relay.stop();
  });

  it("hands a failed round to onError, console.error by default, and keeps going", async () => {
    vi.useFakeTimers();
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const failure = new Error("storage is down");
    const { owner, calls } = ownerAnswering(failure);
    const relay = startWebhookRelay(owner, { intervalMs: 10 });
    await vi.advanceTimersByTimeAsync(20);
    expect(consoleError).toHaveBeenCalledWith("webhook relay failed", failure);
    expect(calls()).toBe(2);
    await relay.stop();
  });

  it("unrefs its timer and refuses a bad interval, naming itself", async () => {
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const relay = startWebhookRelay(ownerAnswering().owner, { intervalMs: 60_000 });
    expect((setIntervalSpy.mock.results[0]!.value as NodeJS.Timeout).hasRef()).toBe(false);
    await relay.stop();
    expect(() => startWebhookRelay(ownerAnswering().owner, { intervalMs: 0 })).toThrow(
      new RangeError("webhook relay: intervalMs must be a positive number"),
    );
  });

  it("delivers what an owner queued through the transport when poked, verified by the receiver", async () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const receiver = await startReceiver();
    const transport = createWebhookTransport({ allowPrivate: true });
    const queue: OutgoingDelivery[] = [1, 2, 3].map((n) => ({
      url: `${receiver.origin}/in`,
      id: `evt_${n}`,
      timestamp: new Date(),
      payload: JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: { n } }),
      secrets: [secret],
    }));
    const owner: WebhookRelayOwner = {
      webhooks: {
        async relay() {
          const due = queue.splice(0);
          const outcomes = await Promise.all(due.map((d) => transport.deliver(d)));
          const delivered = outcomes.filter((o) => o.kind === "succeeded").length;
          return { fannedOut: 0, delivered, retried: 0, failed: due.length - delivered };
        },
      },
    };
    const reports: WebhookRelayReport[] = [];
    const relay = startWebhookRelay(owner, { intervalMs: 60_000, onReport: (r) => reports.push(r) });
    relay.poke();
    await vi.waitFor(() => expect(reports).toEqual([{ fannedOut: 0, delivered: 3, retried: 0, failed: 0 }]));
    await relay.stop();
    await receiver.close();
    const webhook = new Webhook(secret);
    expect(receiver.requests.map((r) => webhook.verify(r.body, r.headers as Record<string, string>))).toEqual(
      [1, 2, 3].map((n) => expect.objectContaining({ data: { n } })),
    );
  });
});
