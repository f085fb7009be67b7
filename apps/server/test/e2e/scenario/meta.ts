import { describe, expect, it } from "vitest";
import type { Mode } from "../../support/backends.js";
import { CATEGORIES, ENDPOINTS, expectedAuth, SERVICE_ROUTES } from "../../support/contract.js";
import { arr, call, expectError, expectStatus, str } from "../../support/http.js";
import { rawRequest } from "../../support/raw-http.js";
import type { World } from "../../support/world.js";

/** A JSON body just over the 1 MiB limit. */
function oversized(): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({ email: "big@example.com", password: "x".repeat(1024 * 1024) }),
  );
}

/** Capabilities, the OpenAPI document, /docs, the probes, and the protocol-level answers. */
export function metaScenario(mode: Mode, world: () => World): void {
  describe("service documents and protocol", () => {
    it("serves the capabilities document: version 1.3.0, this mode, its known gaps, every endpoint", async () => {
      const reply = await world().api.get("/api/capabilities");
      expectStatus(reply, 200);
      expect(reply.body).toMatchObject({ name: expect.any(String), version: "1.3.0", security_mode: mode });
      const gaps = arr(reply.body.known_gaps).map(str);
      if (mode === "strict") expect(gaps).toEqual([]);
      else {
        expect(gaps).toHaveLength(3);
        expect(gaps.some((gap) => gap.includes("/api/messages"))).toBe(true);
        expect(gaps.some((gap) => gap.includes("GET /api/profiles") && gap.includes("email"))).toBe(true);
        expect(
          gaps.some((gap) => gap.includes("/api/profiles/sync") && gap.includes("/api/profiles/limit")),
        ).toBe(true);
      }
      const served = new Map(
        arr(reply.body.capabilities).map((c) => [`${str(c.method)} ${str(c.path)}`, c.auth]),
      );
      for (const endpoint of ENDPOINTS)
        expect([endpoint, served.get(endpoint)]).toEqual([endpoint, expectedAuth(endpoint, mode)]);
      expect(reply.body.categories).toEqual(CATEGORIES);
      expect(arr(reply.body.authentication).map((a) => a.header)).toEqual(
        expect.arrayContaining(["X-API-Key", "Authorization"]),
      );
      expect(arr(reply.body.changes_from_1_0_2).length).toBeGreaterThan(0);
      expect(reply.body.limits).toEqual(expect.any(Object));
    });

    it("serves /openapi.json: OpenAPI 3.1, info.version 1.3.0, every endpoint and service route", async () => {
      const reply = await world().api.get("/openapi.json");
      expectStatus(reply, 200);
      expect(reply.body.openapi).toEqual(expect.stringMatching(/^3\.1\.\d+$/));
      expect(reply.body.info?.version).toBe("1.3.0");
      const documented = new Set<string>();
      for (const [path, item] of Object.entries(reply.body.paths ?? {})) {
        for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
      }
      for (const endpoint of [...ENDPOINTS, ...SERVICE_ROUTES]) expect(documented).toContain(endpoint);
      expect(Object.keys(reply.body.components?.securitySchemes ?? {}).sort()).toEqual([
        "ApiKeyAuth",
        "BearerAuth",
      ]);
    });

    it("serves /docs as an HTML page, and the probes", async () => {
      const { api } = world();
      const docs = await api.get("/docs");
      expectStatus(docs, 200);
      expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
      const html = String(docs.body);
      expect(html).toMatch(/<html/i);
      // Assets come from the server itself, never a CDN (issue 4).
      const assets = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "");
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        expect(asset).toMatch(/^\/(?!\/)/);
        expectStatus(await api.get(asset), 200);
      }
      const resetPage = await api.get("/reset-password");
      expectStatus(resetPage, 400);
      expect(resetPage.headers.get("content-type")).toMatch(/^text\/html/);
      expect((await api.get("/healthz")).body).toEqual({ status: "ok" });
      const ready = await api.get("/readyz");
      expectStatus(ready, 200);
      expect(ready.body).toEqual({ status: "ready" });
    });

    it("answers an unknown route 404 and a wrong method 405, both as JSON errors", async () => {
      const { api } = world();
      expectError(await api.get("/api/no-such-thing"), 404, "not_found");
      expectError(await api.post("/nowhere", { body: {} }), 404, "not_found");
      const wrong = await api.delete("/api/capabilities");
      expectError(wrong, 405, "method_not_allowed");
      expect(wrong.headers.get("allow")).toContain("GET");
      expectError(await api.put("/api/listings", { body: {} }), 405, "method_not_allowed");
    });

    it("answers malformed JSON 400 and a JSON body over 1 MiB 413", async () => {
      const { api, url } = world();
      const json = { "content-type": "application/json" };
      expectError(
        await api.post("/api/auth/login", { headers: json, rawBody: '{"email": ' }),
        400,
        "invalid_json",
      );
      const user = await world().account("protocol");
      const broken = await api.post("/api/listings", { apiKey: user.key, headers: json, rawBody: "{nope}" });
      expectError(broken, 400, "invalid_json");
      const huge = await rawRequest(url, "POST", "/api/auth/signup", { headers: json, body: oversized() });
      expect(huge.status).toBe(413);
      expect(huge.headers["x-request-id"]).toMatch(/\S/);
      expect(JSON.parse(huge.text)).toEqual({ error: expect.any(String), code: "payload_too_large" });
      huge.close();
    });

    // A body refused unread leaves the connection in an unknown state: the server
    // must say "Connection: close" or really keep it open, or a client's next
    // request on that keep-alive socket fails ("other side closed").
    it("keeps its word on keep-alive after a 413: says Connection: close, or keeps the socket open", async () => {
      const json = { "content-type": "application/json" };
      const huge = await rawRequest(world().url, "POST", "/api/auth/signup", {
        headers: json,
        body: oversized(),
      });
      expect(huge.status).toBe(413);
      const announced = String(huge.headers.connection ?? "keep-alive").toLowerCase();
      const closed = await huge.closedWithin(2000);
      if (announced !== "close") {
        expect(closed, `the 413 said "Connection: ${announced}", then the server closed the socket`).toBe(
          false,
        );
      }
    });

    it("echoes a valid incoming X-Request-Id and makes one otherwise", async () => {
      const { api, url } = world();
      const echoed = await api.get("/healthz", { headers: { "x-request-id": "e2e-request-0001" } });
      expect(echoed.headers.get("x-request-id")).toBe("e2e-request-0001");
      const replaced = await call(url, "GET", "/healthz", {
        headers: { "x-request-id": "not valid; <script>" },
      });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]+$/);
      const made = await call(url, "GET", "/api/no-such-thing");
      expect(made.headers.get("x-request-id")).toMatch(/\S/);
      expect(made.headers.get("x-request-id")).not.toBe("e2e-request-0001");
    });
  });
}
