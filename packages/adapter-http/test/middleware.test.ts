import { MarketplaceError } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import { describe, expect, test } from "vitest";
import type { AppEnv, RateLimitClass } from "../src/index.js";
import { expectError, harness } from "./helpers.js";

describe("X-Request-Id", () => {
  test("generated when absent, on success and on errors", async () => {
    const h = harness();
    for (const path of ["/api/capabilities", "/api/nope", "/healthz"]) {
      const id = (await h.call("GET", path)).headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const unauthorized = await h.call("GET", "/api/capabilities", { key: "psm_bad" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("x-request-id")).toBeTruthy();
  });

  test("a valid incoming id is echoed; an invalid one is replaced", async () => {
    const h = harness();
    const echoed = await h.call("GET", "/healthz", { headers: { "X-Request-Id": "abc.DEF_123-x" } });
    expect(echoed.headers.get("x-request-id")).toBe("abc.DEF_123-x");
    for (const bad of ["has space", "a=b", "x".repeat(129), "<script>"]) {
      const res = await h.call("GET", "/healthz", { headers: { "X-Request-Id": bad } });
      expect(res.headers.get("x-request-id")).not.toBe(bad);
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe("security headers", () => {
  test("CSP, nosniff, frame and referrer policy; no X-Powered-By", async () => {
    const h = harness();
    for (const path of ["/api/capabilities", "/api/nope", "/openapi.json"]) {
      const res = await h.call("GET", path);
      const csp = res.headers.get("content-security-policy") ?? "";
      // JSON API answers allow nothing; other answers (pages, the OpenAPI document) their own origin.
      expect(csp).toContain(path.startsWith("/api/") ? "default-src 'none'" : "default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get("strict-transport-security")).toContain("max-age=");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });
});

describe("security headers beyond the built-in routes", () => {
  test("a route an embedder adds, answering a Response of its own, is hardened too", async () => {
    const h = harness();
    h.app.get("/embedder/raw", () => new Response("plain", { headers: { "Content-Type": "text/plain" } }));
    const res = await h.call("GET", "/embedder/raw");
    expect(await res.text()).toBe("plain");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  test("JSON answers carry no script nonce; only /docs has one, new on every load", async () => {
    const h = harness();
    const json = await h.call("GET", "/api/capabilities");
    expect(json.headers.get("content-security-policy")).not.toContain("nonce-");
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const csp = (await h.call("GET", "/docs")).headers.get("content-security-policy") ?? "";
        return /'nonce-([^']+)'/.exec(csp)?.[1];
      }),
    );
    expect(nonces[0]).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test("OPTIONS, which Allow lists on every path, is answered 204 with or without an Origin", async () => {
    const h = harness();
    for (const headers of [{}, { Origin: "https://agent.example" }] as Record<string, string>[]) {
      const res = await h.call("OPTIONS", "/api/listings", { headers });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-methods")).toContain("POST");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("without an Origin header no CORS grant is computed; a listed-origins policy still varies on Origin", async () => {
    const open = await harness().call("GET", "/api/capabilities");
    expect(open.headers.get("access-control-allow-origin")).toBeNull();
    const listed = await harness("strict", { corsOrigins: ["https://app.example"] }).call(
      "GET",
      "/api/capabilities",
    );
    expect(listed.headers.get("vary")).toContain("Origin");
  });
});

describe("CORS", () => {
  test("preflight from any origin with '*'", async () => {
    const h = harness();
    const res = await h.call("OPTIONS", "/api/listings", {
      headers: {
        Origin: "https://agent.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, x-api-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-api-key");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("a listed origin only, and the exposed headers", async () => {
    const h = harness("strict", { corsOrigins: ["https://app.example"] });
    const allowed = await h.call("GET", "/api/capabilities", { headers: { Origin: "https://app.example" } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const exposed = allowed.headers.get("access-control-expose-headers") ?? "";
    for (const name of ["X-Request-Id", "Retry-After", "RateLimit"]) expect(exposed).toContain(name);
    const other = await h.call("GET", "/api/capabilities", { headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("access log", () => {
  test("one line per request: path without query, status, ms, userId; never secrets", async () => {
    const h = harness();
    const s = await h.signUp();
    h.logs.length = 0;
    await h.call("GET", "/api/listings?search=SECRET-TOKEN-123", { token: s.token });
    await h.call("POST", "/api/auth/login", { body: { email: s.email, password: "secret-password" } });
    const lines = h.logs.filter((l) => l.level === "info");
    expect(lines).toHaveLength(2);
    expect(lines[0]?.obj).toMatchObject({
      method: "GET",
      path: "/api/listings",
      ip: "unknown", // no socket in app.request(); a served request logs its address
      status: 200,
      userId: s.id,
    });
    expect(lines[0]?.obj).toHaveProperty("reqId");
    expect(lines[0]?.obj).toHaveProperty("ms", expect.any(Number));
    const all = JSON.stringify(h.logs);
    for (const secret of ["SECRET-TOKEN-123", s.token, "secret-password"]) expect(all).not.toContain(secret);
  });
});

describe("rate-limit extension point", () => {
  test("each route runs the hook of its class, after authentication", async () => {
    const seen: string[] = [];
    const hook =
      (cls: RateLimitClass): MiddlewareHandler<AppEnv> =>
      async (c, next) => {
        const actor = c.get("actor");
        seen.push(`${cls}:${c.get("rateLimitClass")}:${actor.kind}`);
        await next();
      };
    const classes: RateLimitClass[] = ["read", "write", "login", "signup", "reset", "upload"];
    const h = harness("strict", { rateLimit: Object.fromEntries(classes.map((c) => [c, hook(c)])) });
    const s = await h.signUp();
    seen.length = 0;
    await h.call("GET", "/api/listings", { token: s.token });
    await h.call("POST", "/api/auth/login", { body: { email: s.email, password: "nope-nope" } });
    await h.call("POST", "/api/auth/reset-password", { body: { email: s.email } });
    await h.call("POST", "/api/keys", { token: s.token });
    await h.call("GET", "/healthz");
    expect(seen).toEqual([
      "read:read:user",
      "login:login:anonymous",
      "reset:reset:anonymous",
      "write:write:user",
    ]);
  });

  test("a login limiter sees the address before credentials are checked, and the outcome after", async () => {
    const seen: unknown[] = [];
    const login: MiddlewareHandler<AppEnv> = async (c, next) => {
      const body = c.get("body") as { email?: unknown };
      await next();
      seen.push([body.email, c.res.status]);
    };
    const h = harness("strict", { rateLimit: { login } });
    await h.call("POST", "/api/auth/login", { body: { email: "who@example.com", password: "wrong-one" } });
    expect(seen).toEqual([["who@example.com", 401]]);
    const huge = await h.call("POST", "/api/auth/login", { raw: "x".repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(seen).toHaveLength(1);
  });

  test("a limiter refuses with 429, Retry-After and its own headers, before validation", async () => {
    const limiter: MiddlewareHandler<AppEnv> = async (c) => {
      c.header("RateLimit", "limit=10, remaining=0, reset=30");
      throw new MarketplaceError("rate_limited", undefined, { retryAfter: 30 });
    };
    const h = harness("strict", { rateLimit: { signup: limiter } });
    const res = await h.call("POST", "/api/auth/signup", { body: {} });
    await expectError(res, 429, { error: "Too many requests", code: "rate_limited" });
    expect(res.headers.get("retry-after")).toBe("30");
    expect(res.headers.get("ratelimit")).toBe("limit=10, remaining=0, reset=30");
  });
});

describe("HEAD", () => {
  test("a GET route answers HEAD without a body", async () => {
    const res = await harness().call("HEAD", "/api/capabilities");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("health", () => {
  test("/healthz and /readyz", async () => {
    expect(await (await harness().call("GET", "/healthz")).json()).toEqual({ status: "ok" });
    expect((await harness().call("GET", "/readyz")).status).toBe(200);
    const down = harness("strict", { ready: async () => false });
    const res = await down.call("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: "service_unavailable" });
    const throwing = harness("strict", {
      ready: async () => {
        throw new Error("db down");
      },
    });
    expect((await throwing.call("GET", "/readyz")).status).toBe(503);
  });
});
