/**
 * OWASP API8:2023 Security Misconfiguration. Security headers on every kind
 * of answer, CORS exactly as configured, no stack trace or internal message
 * in a 500, no X-Powered-By, and one error shape on every error path.
 */
import { request as httpRequest } from "node:http";
import type { Repositories } from "@psm/core";
import { createMemoryStorage } from "@psm/core/testing";
import { describe, expect, test } from "vitest";
import { createRateLimitHooks } from "../../src/index.js";
import { startRealServer } from "./support/real-server.js";
import { type Target, target } from "./support/target.js";

const SECRET_DETAIL = "connect ECONNREFUSED 10.0.0.5:5432 at /srv/app/secret.js";

/** Repositories whose listing search fails with an internal error carrying details. */
function brokenRepositories(): Repositories {
  const repos = createMemoryStorage().repositories;
  return {
    ...repos,
    listings: {
      ...repos.listings,
      search: async () => {
        throw new Error(SECRET_DETAIL);
      },
    },
  };
}

function expectHardened(res: Response, what: string): void {
  expect(res.headers.get("x-powered-by"), what).toBeNull();
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(res.headers.get("x-frame-options"), what).toBe("DENY");
  expect(res.headers.get("content-security-policy"), what).toContain("frame-ancestors 'none'");
  expect(res.headers.get("strict-transport-security"), what).toContain("max-age=");
  expect(res.headers.get("x-request-id"), what).toBeTruthy();
}

async function expectErrorShape(res: Response, status: number, what: string): Promise<void> {
  expect(res.status, what).toBe(status);
  expect(res.headers.get("content-type"), what).toMatch(/^application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort(), what).toEqual(["code", "error"]);
  expect(typeof body.error, what).toBe("string");
  expect(body.code, what).toMatch(/^[a-z_]+$/);
  expectHardened(res, what);
}

describe("no internals in a 500", () => {
  test("a failing port answers {error, code} only; the detail goes to the log", async () => {
    const t = target({ repos: brokenRepositories() });
    const res = await t.request("GET", "/api/listings");
    const text = await res.clone().text();
    await expectErrorShape(res, 500, "broken search");
    expect(JSON.parse(text)).toEqual({ error: "Internal server error", code: "internal_error" });
    for (const leak of ["ECONNREFUSED", "10.0.0.5", "secret.js", "at ", "stack"])
      expect(text).not.toContain(leak);
    expect(JSON.stringify(t.errors)).toContain("ECONNREFUSED");
  });

  test("a parser that throws a plain Error is a uniform 500 too", async () => {
    const t = target({
      documents: {
        parse: async () => {
          throw new TypeError(SECRET_DETAIL);
        },
      },
    });
    const s = await t.signUp();
    const form = new FormData();
    form.set("file", new File(["x"], "a.txt", { type: "text/plain" }));
    const res = await t.request("POST", "/api/parse-pdf", { token: s.token, raw: form });
    await expectErrorShape(res, 500, "throwing parser");
  });
});

describe("one error shape everywhere", () => {
  test("400, 401, 403, 404, 405, 413 and 429 all answer {error, code} with the security headers", async () => {
    const t: Target = target({
      config: {
        rateLimit: createRateLimitHooks({
          policies: { signup: { name: "signup", limit: 1, windowMs: 60_000 } },
        }),
      },
    });
    const s = await t.signUp();
    const cases: [string, number, () => Promise<Response>][] = [
      ["malformed JSON", 400, () => t.request("POST", "/api/listings", { token: s.token, raw: "{oops" })],
      [
        "invalid field",
        400,
        () => t.request("POST", "/api/listings", { token: s.token, body: { title: "" } }),
      ],
      ["bad credential", 401, () => t.request("GET", "/api/listings", { key: "psm_nope" })],
      [
        "basic auth",
        401,
        () => t.request("GET", "/api/listings", { headers: { Authorization: "Basic YTpi" } }),
      ],
      ["not admin", 403, () => t.request("GET", "/api/admin/users", { token: s.token })],
      ["unknown route", 404, () => t.request("GET", "/api/nothing-here")],
      ["unknown listing", 404, () => t.request("GET", "/api/listings/not-a-uuid")],
      ["wrong method", 405, () => t.request("PUT", "/api/listings")],
      [
        "too large",
        413,
        () => t.request("POST", "/api/listings", { token: s.token, raw: "x".repeat(1_100_000) }),
      ],
      ["rate limited", 429, () => t.request("POST", "/api/auth/signup", { body: {} })],
    ];
    for (const [what, status, send] of cases) await expectErrorShape(await send(), status, what);
  });

  test("503 (not ready) and TRACE on a real socket (fetch cannot send it) too", async () => {
    const down = target({ config: { ready: async () => false } });
    await expectErrorShape(await down.request("GET", "/readyz"), 503, "not ready");
    const server = await startRealServer(target().app);
    try {
      const res = await new Promise<{ status: number; headers: Headers; body: string }>((done, fail) => {
        const req = httpRequest(`${server.url}/api/listings`, { method: "TRACE" }, (incoming) => {
          let body = "";
          incoming.setEncoding("utf8");
          incoming.on("data", (chunk: string) => {
            body += chunk;
          });
          incoming.on("end", () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) headers.set(name, String(value));
            done({ status: incoming.statusCode ?? 0, headers, body });
          });
        });
        req.on("error", fail);
        req.end();
      });
      await expectErrorShape(new Response(res.body, res), 405, "TRACE");
    } finally {
      await server.close();
    }
  });

  test("success answers and HTML pages carry the headers too", async () => {
    const t = target();
    for (const path of [
      "/api/capabilities",
      "/healthz",
      "/openapi.json",
      "/docs",
      "/reset-password?token=x",
    ]) {
      expectHardened(await t.request("GET", path), path);
    }
  });
});

describe("CORS as configured", () => {
  const origin = "https://app.example";

  test("a listed origin is allowed, on preflight and on the request itself", async () => {
    const t = target({ config: { corsOrigins: [origin] } });
    const preflight = await t.request("OPTIONS", "/api/listings", {
      headers: { Origin: origin, "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    const res = await t.request("GET", "/api/listings", { headers: { Origin: origin } });
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("another origin, a look-alike or null gets no CORS grant", async () => {
    const t = target({ config: { corsOrigins: [origin] } });
    for (const other of [
      "https://evil.example",
      "https://app.example.evil.example",
      "http://app.example",
      "null",
    ]) {
      const preflight = await t.request("OPTIONS", "/api/listings", {
        headers: { Origin: other, "Access-Control-Request-Method": "DELETE" },
      });
      expect(preflight.headers.get("access-control-allow-origin"), other).toBeNull();
      const res = await t.request("GET", "/api/listings", { headers: { Origin: other } });
      expect(res.headers.get("access-control-allow-origin"), other).toBeNull();
    }
  });

  test("'*' never comes with credentials", async () => {
    const t = target({ config: { corsOrigins: "*" } });
    const res = await t.request("GET", "/api/listings", { headers: { Origin: "https://any.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });
});
