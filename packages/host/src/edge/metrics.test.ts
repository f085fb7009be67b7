import { createMarketplace, MarketplaceError } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createHost } from "../create-host.js";
import type { RequestLabels } from "./metrics.js";

/** A host with an API-like surface and a page-like catch-all, recording what its hook is told. */
function recordingHost() {
  const seen: { labels: RequestLabels; seconds: number }[] = [];
  const api = new Hono();
  api.get("/api/listings/:id", (c) =>
    c.req.param("id") === "missing"
      ? Promise.reject(new MarketplaceError("listing_not_found"))
      : Promise.resolve(c.json({ id: c.req.param("id") })),
  );
  api.post("/api/listings", (c) => c.json({}, 201));
  const pages = new Hono();
  pages.use(async (_c, next) => next());
  pages.get("*", (c) => c.notFound());
  const host = createHost({
    marketplace: createMarketplace(createTestDeps()),
    corsOrigins: "*",
    surfaces: [
      { path: "/", app: api },
      { path: "/", app: pages },
    ],
    onRequestEnd: (labels, seconds) => seen.push({ labels, seconds }),
  });
  return { host, seen };
}

describe("the host's request metrics", () => {
  it("labels a request with the pattern of the route that answered, never its path", async () => {
    const { host, seen } = recordingHost();
    await host.request(`/api/listings/${crypto.randomUUID()}`);
    await host.request(`/api/listings/${crypto.randomUUID()}`);
    await host.request("/api/listings/missing");
    await host.request("/api/listings", { method: "POST" });
    expect(seen.map((s) => s.labels)).toEqual([
      { method: "GET", operation: "/api/listings/:id", status: 200 },
      { method: "GET", operation: "/api/listings/:id", status: 200 },
      { method: "GET", operation: "/api/listings/:id", status: 404 },
      { method: "POST", operation: "/api/listings", status: 201 },
    ]);
    for (const { seconds } of seen) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it("calls a request no route took unmatched, catch-alls and 405s included", async () => {
    const { host, seen } = recordingHost();
    await host.request(`/nonexistent/${crypto.randomUUID()}`);
    await host.request(`/nonexistent/${crypto.randomUUID()}`, { method: "DELETE" });
    await host.request("/api/listings/x", { method: "PUT" });
    expect(seen.map((s) => s.labels)).toEqual([
      { method: "GET", operation: "unmatched", status: 404 },
      { method: "DELETE", operation: "unmatched", status: 404 },
      { method: "PUT", operation: "unmatched", status: 405 },
    ]);
  });

  it("keeps methods to a fixed set, and a recorder that throws changes no answer", async () => {
    const seen: RequestLabels[] = [];
    const api = new Hono();
    api.get("/x", (c) => c.text("ok"));
    const host = createHost({
      marketplace: createMarketplace(createTestDeps()),
      corsOrigins: "*",
      surfaces: [{ path: "/", app: api }],
      onRequestEnd: (labels) => {
        seen.push(labels);
        throw new Error("recorder broke");
      },
    });
    expect((await host.request("/x")).status).toBe(200);
    await host.request("/x", { method: "PROPFIND" });
    expect(seen.map((l) => l.method)).toEqual(["GET", "OTHER"]);
  });
});
