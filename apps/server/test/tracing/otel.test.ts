import { afterAll, describe, expect, it } from "vitest";
import { REQUEST_ID_ATTRIBUTE } from "../../src/tracing.js";
import { useHarness } from "../support/harness.js";
import { call } from "../support/http.js";
import { stopServer } from "../support/server-process.js";
import { startOtlpReceiver } from "./otlp-receiver.js";

// OTEL_EXPORTER_OTLP_ENDPOINT names a collector: here a real OTLP/HTTP receiver on loopback.
// The server is stopped with SIGTERM before the spans are read: its shutdown sends what is
// batched, so nothing here waits on the exporter's timer.
describe("OpenTelemetry traces", () => {
  const h = useHarness();
  const receivers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
  });

  it("sends a span per request, with the request id, and a child span per storage call", async () => {
    const receiver = await startOtlpReceiver();
    receivers.push(receiver);
    const server = await h.server({
      dataDir: await h.dataDir(),
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    });
    const requestId = `trace-test-${crypto.randomUUID()}`;
    const read = await call(server.url, "GET", "/api/listings?limit=5", {
      headers: { "x-request-id": requestId },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get("x-request-id")).toBe(requestId);
    const missing = await call(server.url, "GET", `/api/listings/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(await stopServer(server)).toBe(0);

    expect(receiver.contentTypes.length).toBeGreaterThan(0);
    const request = receiver.spans.find(
      (s) => s.attributes[REQUEST_ID_ATTRIBUTE] === requestId && s.kind === 2,
    );
    expect(request).toMatchObject({
      name: "GET /api/listings",
      attributes: { "http.route": "/api/listings", "http.response.status_code": 200 },
      resource: { "service.name": "psm-server" },
    });
    const storage = receiver.spans.filter((s) => s.parentSpanId === request?.spanId);
    expect(storage.map((s) => s.name)).toContain("listings.search");
    for (const span of storage) {
      expect(span.traceId).toBe(request?.traceId);
      expect(span.attributes[REQUEST_ID_ATTRIBUTE]).toBe(requestId);
    }
    // Another request is another trace, named by its route pattern, never its raw path.
    const other = receiver.spans.find((s) => s.name === "GET /api/listings/:id");
    expect(other?.attributes["http.response.status_code"]).toBe(404);
    expect(other?.traceId).not.toBe(request?.traceId);
  });
});
