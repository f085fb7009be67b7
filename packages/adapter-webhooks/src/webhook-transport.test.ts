import { randomBytes } from "node:crypto";
import type { OutgoingDelivery } from "@psm/core";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import {
  endlessBody,
  type ReceivedRequest,
  type Receiver,
  silence,
  startReceiver,
  startUntrustedTlsReceiver,
} from "./test-support/receivers.js";
import { createWebhookTransport } from "./webhook-transport.js";

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

let receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

function delivery(
  url: string,
  secrets: string[],
  overrides: Partial<OutgoingDelivery> = {},
): OutgoingDelivery {
  const payload = JSON.stringify({
    type: "listing.created",
    timestamp: new Date().toISOString(),
    data: { id: 1 },
  });
  return {
    url,
    id: `evt_${randomBytes(8).toString("hex")}`,
    timestamp: new Date(),
    payload,
    secrets,
    ...overrides,
  };
}

/** Whether `secret` verifies a received request, by the standardwebhooks library a receiver uses. */
function verifies(secret: string, request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

// Local receivers listen on 127.0.0.1, which only allowPrivate lets through.
const transport = createWebhookTransport({ allowPrivate: true });

describe("deliver: signing", () => {
  it("signs every delivery so that the receiver's standardwebhooks verifies it", async () => {
    const secret = newSecret();
    const target = await receiver();
    const payloads = [
      "{}",
      JSON.stringify({ type: "message.received", data: { text: 'naïve café ✓ 🚀 \u2028 "quoted"' } }),
      JSON.stringify({ type: "listing.updated", data: { blob: "x".repeat(100_000) } }),
      ...Array.from({ length: 17 }, (_, i) => JSON.stringify({ type: "listing.created", data: { i } })),
    ];
    const sent = payloads.map((payload, i) =>
      delivery(`${target.origin}/hooks/${i}?a=1`, [secret], { payload, id: `evt_${i}` }),
    );
    const outcomes = await Promise.all(sent.map((d) => transport.deliver(d)));
    expect(outcomes).toEqual(sent.map(() => ({ kind: "succeeded", status: 204 })));
    expect(target.requests).toHaveLength(payloads.length);
    for (const request of target.requests) {
      const i = Number(request.path.split("/")[2]?.split("?")[0]);
      expect(request.method).toBe("POST");
      expect(request.body).toBe(payloads[i]);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["webhook-id"]).toBe(`evt_${i}`);
      expect(request.headers["webhook-timestamp"]).toBe(
        String(Math.floor(sent[i]!.timestamp.getTime() / 1000)),
      );
      expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verifies(secret, request)).toBe(true);
    }
  });

  it("signs with both secrets during a rotation, and with the new one only after it", async () => {
    const [previous, next] = [newSecret(), newSecret()];
    const target = await receiver();
    await transport.deliver(delivery(target.origin, [previous, next]));
    await transport.deliver(delivery(target.origin, [next]));
    const [during, after] = target.requests;
    expect(String(during!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect([verifies(previous, during!), verifies(next, during!)]).toEqual([true, true]);
    expect(String(after!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect([verifies(previous, after!), verifies(next, after!)]).toEqual([false, true]);
  });

  it("rejects a delivery without a secret instead of sending it unsigned", async () => {
    const target = await receiver();
    await expect(transport.deliver(delivery(target.origin, []))).rejects.toThrow(RangeError);
    expect(target.requests).toHaveLength(0);
  });

  it("sends the configured User-Agent", async () => {
    const target = await receiver();
    const named = createWebhookTransport({
      allowPrivate: true,
      userAgent: "market-hooks/2 (+https://m.example)",
    });
    await named.deliver(delivery(target.origin, [newSecret()]));
    expect(target.requests[0]!.headers["user-agent"]).toBe("market-hooks/2 (+https://m.example)");
  });
});

describe("deliver: what the answer means", () => {
  it("reports 410 as gone", async () => {
    const target = await receiver((response) => response.writeHead(410).end("unsubscribed"));
    expect(await transport.deliver(delivery(target.origin, [newSecret()]))).toEqual({
      kind: "gone",
      status: 410,
    });
  });

  it("reports a 500 as failed, with the receiver's words and its Retry-After in milliseconds", async () => {
    const target = await receiver((response) =>
      response.writeHead(500, { "retry-after": "120" }).end("database\nunavailable"),
    );
    expect(await transport.deliver(delivery(target.origin, [newSecret()]))).toEqual({
      kind: "failed",
      status: 500,
      error: "HTTP 500: database unavailable",
      retryAfterMs: 120_000,
    });
  });

  it("ignores a Retry-After it cannot read", async () => {
    const target = await receiver((response) => response.writeHead(429, { "retry-after": "soon" }).end());
    const outcome = await transport.deliver(delivery(target.origin, [newSecret()]));
    expect(outcome).toEqual({ kind: "failed", status: 429, error: "HTTP 429" });
  });

  it("does not follow a redirect: a 302 fails with its status and its target is never called", async () => {
    const elsewhere = await receiver();
    const target = await receiver((response) =>
      response.writeHead(302, { location: `${elsewhere.origin}/moved` }).end(),
    );
    const outcome = await transport.deliver(delivery(target.origin, [newSecret()]));
    expect(outcome).toEqual({
      kind: "failed",
      status: 302,
      error: `HTTP 302: redirects are not followed (to ${elsewhere.origin}/moved).`,
    });
    expect(target.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("gives up on a receiver that never answers, after the timeout, and closes the connection", async () => {
    const target = await receiver(silence);
    const impatient = createWebhookTransport({ allowPrivate: true, timeoutMs: 300 });
    const outcome = await impatient.deliver(delivery(target.origin, [newSecret()]));
    expect(outcome).toEqual({ kind: "failed", status: null, error: "No answer within 300 ms." });
    await target.responseClosed(); // hangs (and the test times out) if the socket were left open
    expect(target.requests).toHaveLength(1);
  });

  it("stops reading an endless body at the limit: the status stands and the connection is cut", async () => {
    // A timeout far beyond the test's own: only the byte limit can end these deliveries.
    const patient = createWebhookTransport({
      allowPrivate: true,
      timeoutMs: 600_000,
      maxResponseBytes: 1000,
    });
    const ok = await receiver(endlessBody(200));
    expect(await patient.deliver(delivery(ok.origin, [newSecret()]))).toEqual({
      kind: "succeeded",
      status: 200,
    });
    await ok.responseClosed();

    const broken = await receiver(endlessBody(503));
    const outcome = await patient.deliver(delivery(broken.origin, [newSecret()]));
    expect(outcome).toMatchObject({ kind: "failed", status: 503 });
    expect(outcome.kind === "failed" && outcome.error).toBe(`HTTP 503: ${"x".repeat(199)}…`);
    await broken.responseClosed();
  });

  it("reports a refused connection as a failure without a status", async () => {
    const target = await receiver();
    await target.close();
    const outcome = await transport.deliver(delivery(target.origin, [newSecret()]));
    expect(outcome).toEqual({ kind: "failed", status: null, error: "The connection was refused." });
  });

  it("verifies an https receiver's certificate: a self-signed one fails without a status", async () => {
    const target = await startUntrustedTlsReceiver();
    receivers.push(target);
    const outcome = await transport.deliver(delivery(target.origin, [newSecret()]));
    expect(outcome).toEqual({
      kind: "failed",
      status: null,
      error: "The receiver's TLS certificate was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT).",
    });
    expect(target.requests).toHaveLength(0);
  });

  it("reports a host that does not resolve as a failure without a status", async () => {
    const nowhere = createWebhookTransport({
      allowPrivate: true,
      lookup: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
      },
    });
    const outcome = await nowhere.deliver(delivery("http://nowhere.example/hook", [newSecret()]));
    expect(outcome).toEqual({
      kind: "failed",
      status: null,
      error: "The URL's host does not resolve (ENOTFOUND).",
    });
  });

  it("connects to the address its own resolver answered, keeping the URL's host name", async () => {
    const target = await receiver();
    const asked: string[] = [];
    const mapped = createWebhookTransport({
      allowPrivate: true,
      lookup: async (hostname) => {
        asked.push(hostname);
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    const outcome = await mapped.deliver(
      delivery(`http://hooks.receiver.test:${target.port}/in`, [newSecret()]),
    );
    expect(outcome).toEqual({ kind: "succeeded", status: 204 });
    expect(asked).toEqual(["hooks.receiver.test"]);
    expect(target.requests[0]!.headers.host).toBe(`hooks.receiver.test:${target.port}`);
  });
});

describe("createWebhookTransport", () => {
  it("refuses limits that are not positive integers", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createWebhookTransport({ timeoutMs: bad })).toThrow(RangeError);
      expect(() => createWebhookTransport({ maxResponseBytes: bad })).toThrow(RangeError);
    }
  });
});
