import { createConnection } from "node:net";
import { createHttpApp, createRateLimitHooks } from "@psm/adapter-http";
import { createTestDatabase, POSTGRES_SKIP_REASON, testDatabaseUrl } from "@psm/adapter-postgres/testing";
import { createMarketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "./config.js";
import { type CounterStores, openCounterStores, openRateLimiting, trustedProxies } from "./rate-limit.js";

const silent = { info() {}, warn() {}, error() {} };
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/15";
const REDIS_SKIP_REASON = `no Redis answers at ${REDIS_URL}: start one (.ci/run does when redis-server is installed) or set TEST_REDIS_URL`;
const adminUrl = testDatabaseUrl();

/** Three hits on one counter of the store, as a limiter would make them. */
async function hitThrice(stores: CounterStores): Promise<number[]> {
  const store = stores.factory({ name: "test", limit: 5, windowMs: 60_000 });
  store.init?.({ windowMs: 60_000 } as Parameters<NonNullable<typeof store.init>>[0]);
  const key = `test:${Date.now()}:${Math.random()}`;
  const hits: number[] = [];
  for (let i = 0; i < 3; i++) hits.push((await store.increment(key)).totalHits);
  return hits;
}

function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((done) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.once("connect", () => {
      socket.end();
      done(true);
    });
    socket.once("error", () => done(false));
  });
}

describe("rate limiting from the configuration", () => {
  it("RATE_LIMIT=off gives no hooks; on, one per route class", async () => {
    expect((await openRateLimiting(readConfig({ RATE_LIMIT: "off" }), silent)).hooks).toBeUndefined();
    const on = await openRateLimiting(readConfig({}), silent);
    expect(Object.keys(on.hooks ?? {}).sort()).toEqual([
      "confirm",
      "login",
      "read",
      "reset",
      "signup",
      "upload",
      "write",
    ]);
    await on.close();
  });

  it("memory counters count", async () => {
    expect(await hitThrice(await openCounterStores(readConfig({})))).toEqual([1, 2, 3]);
  });

  it("RATE_LIMIT_STORE=postgres refuses to start without a PostgreSQL DATABASE_URL", async () => {
    const config = readConfig({ RATE_LIMIT_STORE: "postgres" });
    await expect(openCounterStores(config)).rejects.toThrow(ConfigError);
    await expect(openCounterStores(config)).rejects.toThrow(/RATE_LIMIT_STORE=postgres needs DATABASE_URL/);
  });

  it("an unreachable Redis stops the start with one line naming RATE_LIMIT_STORE", async () => {
    const config = readConfig({ RATE_LIMIT_STORE: "redis://127.0.0.1:1" });
    await expect(openCounterStores(config)).rejects.toThrow(
      /RATE_LIMIT_STORE Redis at 127\.0\.0\.1:1 did not answer/,
    );
  });

  it("TRUST_PROXY must hold addresses or CIDR ranges", () => {
    expect(trustedProxies(readConfig({ TRUST_PROXY: "10.0.0.1, 192.168.0.0/16" }))).toEqual([
      "10.0.0.1",
      "192.168.0.0/16",
    ]);
    expect(() => trustedProxies(readConfig({ TRUST_PROXY: "proxy.internal" }))).toThrow(
      /^Invalid configuration: TRUST_PROXY "proxy\.internal" is not an IP address or CIDR range$/,
    );
  });

  it("postgres counters are shared by two processes' stores", async (ctx) => {
    if (adminUrl === undefined) ctx.skip(POSTGRES_SKIP_REASON);
    const db = await createTestDatabase(adminUrl ?? "", "psm_rl_test");
    try {
      const config = readConfig({ RATE_LIMIT_STORE: "postgres", DATABASE_URL: db.url });
      const [a, b] = [await openCounterStores(config), await openCounterStores(config)];
      const store = (s: CounterStores) => {
        const counter = s.factory({ name: "p", limit: 5, windowMs: 60_000 });
        counter.init?.({ windowMs: 60_000 } as Parameters<NonNullable<typeof counter.init>>[0]);
        return counter;
      };
      const [first, second] = [store(a), store(b)];
      expect((await first.increment("shared")).totalHits).toBe(1);
      expect((await second.increment("shared")).totalHits).toBe(2);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await db.drop();
    }
  });

  it("redis counters count (skipped with a reason when no Redis answers)", async (ctx) => {
    if (!(await redisAnswers())) ctx.skip(REDIS_SKIP_REASON);
    const stores = await openCounterStores(readConfig({ RATE_LIMIT_STORE: REDIS_URL }));
    try {
      expect(stores.kind).toBe("redis");
      expect(await hitThrice(stores)).toEqual([1, 2, 3]);
    } finally {
      await stores.close();
    }
  });
});

describe("the login quotas on every counter store", () => {
  /**
   * Drives login through the HTTP app on `stores`: one IP's guesses stop at 5,
   * the owner elsewhere is let in until 100 failures from many IPs, then not.
   * Addresses and IPs are new each run: Redis keeps its counters between runs.
   */
  async function ownerKeepsAccess(stores: CounterStores): Promise<void> {
    const hooks = createRateLimitHooks({
      stores: stores.factory,
      shared: stores.kind !== "memory",
      logger: silent,
    });
    const marketplace = createMarketplace(createTestDeps());
    const app = createHttpApp({
      marketplace,
      config: {
        corsOrigins: "*",
        publicUrl: "http://localhost",
        logger: silent,
        rateLimit: hooks,
        socketAddress: (c) => c.req.header("x-test-peer"),
      },
    });
    const run = Math.random().toString(36).slice(2, 10);
    const net = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const email = `owner-${run}@example.com`;
    await marketplace.auth.signUp({ email, password: "owner-password" });
    const logIn = async (password: string, ip: string) => {
      const r = await app.request("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", "x-test-peer": ip },
        body: JSON.stringify({ email, password }),
      });
      return r.status;
    };
    const guesses = async (ip: string) => {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push(await logIn(`guess-${i}`, ip));
      return statuses;
    };

    expect(await guesses(`${net}.1`)).toEqual([401, 401, 401, 401, 401]);
    expect(await logIn("owner-password", `${net}.1`)).toBe(429);
    for (let n = 2; n <= 19; n++) expect(await guesses(`${net}.${n}`)).toEqual([401, 401, 401, 401, 401]);
    expect(await logIn("owner-password", `${net}.200`)).toBe(200);
    await guesses(`${net}.20`);
    // Past the account's ceiling (100 failures an hour) the owner still gets in from an address
    // that has not failed, while a guess from a new address is refused and spends its allowance.
    expect(await logIn("owner-password", `${net}.201`)).toBe(200);
    expect(await logIn("guess-new", `${net}.21`)).toBe(429);
    expect(await logIn("owner-password", `${net}.21`)).toBe(429);
  }

  it("memory", async () => {
    await ownerKeepsAccess(await openCounterStores(readConfig({})));
  });

  it("postgres", async (ctx) => {
    if (adminUrl === undefined) ctx.skip(POSTGRES_SKIP_REASON);
    const db = await createTestDatabase(adminUrl ?? "", "psm_rl_test");
    const stores = await openCounterStores(
      readConfig({ RATE_LIMIT_STORE: "postgres", DATABASE_URL: db.url }),
    );
    try {
      await ownerKeepsAccess(stores);
    } finally {
      await stores.close();
      await db.drop();
    }
  });

  it("redis (skipped with a reason when no Redis answers)", async (ctx) => {
    if (!(await redisAnswers())) ctx.skip(REDIS_SKIP_REASON);
    const stores = await openCounterStores(readConfig({ RATE_LIMIT_STORE: REDIS_URL }));
    try {
      await ownerKeepsAccess(stores);
    } finally {
      await stores.close();
    }
  });
});
