import { isMarketplaceError, MarketplaceError } from "@psm/core";
import { Hono, type MiddlewareHandler } from "hono";
import { MemoryStore, type Store } from "hono-rate-limiter";
import { describe, expect, test } from "vitest";
import type { HostEnv } from "../env.js";
import { secondsUntil } from "./headers.js";
import { addressKey } from "./keys.js";
import { limiter } from "./limiter.js";
import { DEFAULT_RATE_LIMIT_POLICIES } from "./policies.js";
import { guardStore } from "./store-guard.js";

const broken: Store<HostEnv> = {
  increment: async () => {
    throw new Error("connection refused");
  },
  decrement: async () => {
    throw new Error("connection refused");
  },
  resetKey: async () => {},
};

function appWith(middleware: MiddlewareHandler<HostEnv>): Hono<HostEnv> {
  const app = new Hono<HostEnv>();
  app.use(middleware);
  app.get("/", (c) => c.json({ ok: true }));
  app.onError((err, c) =>
    isMarketplaceError(err)
      ? c.json({ code: err.code, retryAfter: err.retryAfter ?? null }, 418)
      : c.json({ code: "other" }, 500),
  );
  return app;
}

describe("policies", () => {
  test("the quotas of decisions.md", () => {
    const perMinute = (p: { limit: number; windowMs: number }) => `${p.limit}/${p.windowMs / 60_000}min`;
    const table = Object.fromEntries(
      Object.entries(DEFAULT_RATE_LIMIT_POLICIES).map(([cls, p]) => [cls, perMinute(p)]),
    );
    expect(table).toEqual({
      read: "600/1min",
      write: "120/1min",
      login: "10/1min",
      loginFailures: "5/15min",
      accountLoginFailures: "100/60min",
      signup: "10/60min",
      reset: "5/60min",
      upload: "20/1min",
    });
  });
});

describe("keys", () => {
  test("IPv6 clients are counted per /64, IPv4 per address", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
  });

  test("seconds until a reset are whole, never negative", () => {
    expect(secondsUntil(new Date(10_500), 60_000, 10_000)).toBe(1);
    expect(secondsUntil(new Date(5_000), 60_000, 10_000)).toBe(0);
    expect(secondsUntil(undefined, 90_000)).toBe(90);
  });
});

describe("limiter", () => {
  test("advertises the current-draft fields and refuses past the quota", async () => {
    const policy = { name: "demo", limit: 2, windowMs: 60_000 };
    const app = appWith(limiter({ policy, store: new MemoryStore<HostEnv>(), key: () => "k" }));
    const first = await app.request("/");
    expect(first.headers.get("ratelimit-policy")).toBe('"demo";q=2;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"demo";r=1;t=\d+$/);
    await app.request("/");
    const refused = await app.request("/");
    expect(await refused.json()).toMatchObject({ code: "rate_limited", retryAfter: expect.any(Number) });
    expect(refused.headers.get("ratelimit")).toMatch(/^"demo";r=0;t=\d+$/);
  });
});

describe("a limiter of failures only", () => {
  const policy = { name: "failures", limit: 2, windowMs: 60_000 };

  /** An app whose answer is chosen per request: `?answer=401`, `200`, or a thrown `429`/`400`. */
  function failuresApp() {
    const app = new Hono<HostEnv>();
    app.use(limiter({ policy, store: new MemoryStore<HostEnv>(), key: () => "k", counts: (s) => s === 401 }));
    app.get("/", (c) => {
      const answer = c.req.query("answer");
      if (answer === "429") throw new MarketplaceError("rate_limited");
      if (answer === "400") throw new MarketplaceError("invalid_input");
      return c.json({}, answer === "401" ? 401 : 200);
    });
    app.onError((err, c) => c.json({ code: isMarketplaceError(err) ? err.code : "other" }, 418));
    return app;
  }

  test("counts the failures, not the successes; past the limit it refuses every attempt", async () => {
    const app = failuresApp();
    const statuses = [];
    for (const answer of ["200", "401", "200", "200", "401"]) {
      statuses.push((await app.request(`/?answer=${answer}`)).status);
    }
    expect(statuses).toEqual([200, 401, 200, 200, 401]);
    expect(await (await app.request("/?answer=200")).json()).toEqual({ code: "rate_limited" });
  });

  test("does not count what is thrown further in and answered otherwise: another limiter's 429, a 400", async () => {
    const app = failuresApp();
    for (let i = 0; i < 5; i++) {
      expect(await (await app.request("/?answer=429")).json()).toEqual({ code: "rate_limited" });
      expect(await (await app.request("/?answer=400")).json()).toEqual({ code: "invalid_input" });
    }
    expect((await app.request("/?answer=401")).status).toBe(401);
    expect((await app.request("/?answer=401")).status).toBe(401);
    expect(await (await app.request("/?answer=401")).json()).toEqual({ code: "rate_limited" });
  });
});

describe("a limiter of accepted answers only (sign-up: accounts created)", () => {
  test("counts answers below 400, takes back refusals, and its 429 says when to try again", async () => {
    const policy = { name: "created", limit: 2, windowMs: 3_600_000 };
    const app = new Hono<HostEnv>();
    app.use(
      limiter({
        policy,
        store: new MemoryStore<HostEnv>(),
        key: () => "k",
        counts: (s) => s < 400,
        refusal: (seconds) => `wait ${seconds} s`,
      }),
    );
    app.get("/", (c) => {
      if (c.req.query("answer") === "400") throw new MarketplaceError("invalid_input");
      return c.json({}, c.req.query("answer") === "303" ? 303 : 201);
    });
    app.onError((err, c) =>
      isMarketplaceError(err) ? c.json({ code: err.code, message: err.message }, 418) : c.text("", 500),
    );
    for (let i = 0; i < 5; i++) expect((await app.request("/?answer=400")).status).toBe(418);
    expect((await app.request("/?answer=201")).status).toBe(201);
    expect((await app.request("/?answer=303")).status).toBe(303);
    expect(await (await app.request("/?answer=201")).json()).toEqual({
      code: "rate_limited",
      message: expect.stringMatching(/^wait (3600|3599) s$/),
    });
  });
});

describe("guardStore", () => {
  const logs: object[] = [];
  const logger = { info() {}, warn: (obj: object) => logs.push(obj), error() {} };
  const policy = { name: "demo", limit: 1, windowMs: 60_000 };

  test("fails open: the request goes through and one warning is logged", async () => {
    const store = guardStore(broken, "open", logger, "demo");
    const app = appWith(limiter({ policy, store, key: () => "k" }));
    expect((await app.request("/")).status).toBe(200);
    expect((await app.request("/")).status).toBe(200);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ policy: "demo", mode: "open" });
  });

  test("fails closed: 503 service_unavailable with Retry-After", async () => {
    const store = guardStore(broken, "closed", logger, "demo");
    const res = await appWith(limiter({ policy, store, key: () => "k" })).request("/");
    expect(await res.json()).toEqual({ code: "service_unavailable", retryAfter: 5 });
  });
});
