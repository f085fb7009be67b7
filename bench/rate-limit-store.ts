/**
 * Rate-limit store benchmark: what one counted request costs with each
 * RATE_LIMIT_STORE (memory, PostgreSQL, Redis), at the store (one increment)
 * and end to end (a light read, GET /api/profiles/admin, in process: hooks on vs off).
 * Each figure is the median of --rounds runs: the machine may be busy with other work.
 * Run after `pnpm build`: node bench/rate-limit-store.ts [--hits 5000] [--concurrency 64] [--rounds 3]
 * PostgreSQL: TEST_DATABASE_URL (a fresh database, dropped after); Redis: REDIS_URL
 * (default redis://127.0.0.1:6379/15). A store that does not answer is skipped.
 */
import { parseArgs } from "node:util";
import type { RateLimitStoreFactory } from "@psm/adapter-http";
import { createHttpApp, createRateLimitHooks, DEFAULT_RATE_LIMIT_POLICIES } from "@psm/adapter-http";
import { createTestDatabase } from "@psm/adapter-postgres/testing";
import { createMarketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { type CounterStores, openCounterStores } from "@psm/server/dist/rate-limit.js";

const { values } = parseArgs({
  options: {
    hits: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
  },
});
const ROUNDS = Number(values.rounds);
const PATH = "/api/profiles/admin?user_id=01900000-0000-7000-8000-000000000000";
const HITS = Number(values.hits);
const CONCURRENCY = Number(values.concurrency);
const CLIENTS = 1000;

interface Row {
  store: string;
  seqMeanUs: number;
  seqP50Us: number;
  seqP99Us: number;
  concPerSec: number;
  httpMeanUs: number;
  httpAddedUs: number;
  httpConcPerSec: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const us = (ms: number) => Math.round(ms * 1000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** `once` ROUNDS times; each field the median of the rounds. */
async function time(op: (i: number) => Promise<unknown>) {
  const runs = [];
  for (let r = 0; r < ROUNDS; r++) runs.push(await once(op));
  return {
    mean: median(runs.map((x) => x.mean)),
    p50: median(runs.map((x) => x.p50)),
    p99: median(runs.map((x) => x.p99)),
    perSec: median(runs.map((x) => x.perSec)),
  };
}

/** N sequential operations (latency of each) and N more with CONCURRENCY in flight (throughput). */
async function once(op: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await op(i); // warm-up: JIT, prepared statements, script cache
  const lat: number[] = [];
  for (let i = 0; i < HITS; i++) {
    const start = performance.now();
    await op(i);
    lat.push(performance.now() - start);
  }
  lat.sort((a, b) => a - b);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < HITS) await op(next++);
    }),
  );
  const elapsed = performance.now() - started;
  return {
    mean: lat.reduce((a, b) => a + b, 0) / lat.length,
    p50: pct(lat, 0.5),
    p99: pct(lat, 0.99),
    perSec: Math.round((HITS / elapsed) * 1000),
  };
}

function appWith(stores: RateLimitStoreFactory | null) {
  const deps = createTestDeps();
  return createHttpApp({
    marketplace: createMarketplace(deps),
    config: {
      corsOrigins: "*",
      publicUrl: "http://localhost",
      socketAddress: (c) => c.req.header("x-bench-ip"),
      rateLimit: stores
        ? createRateLimitHooks({
            stores,
            shared: true,
            policies: { read: { name: "read", limit: 1e9, windowMs: 60_000 } },
          })
        : {},
    },
  });
}

async function bench(name: string, stores: CounterStores, baseline: number): Promise<Row> {
  const store = stores.factory(DEFAULT_RATE_LIMIT_POLICIES.read);
  store.init?.({ windowMs: 60_000 } as Parameters<NonNullable<typeof store.init>>[0]);
  const run = `${Date.now()}`;
  const direct = await time((i) => Promise.resolve(store.increment(`bench:${run}:${i % CLIENTS}`)));
  const app = appWith(stores.factory);
  const get = (i: number) =>
    Promise.resolve(
      app.request(PATH, { headers: { "x-bench-ip": `10.${run.length}.${(i >> 8) & 3}.${i & 255}` } }),
    );
  const http = await time(get);
  return {
    store: name,
    seqMeanUs: us(direct.mean),
    seqP50Us: us(direct.p50),
    seqP99Us: us(direct.p99),
    concPerSec: direct.perSec,
    httpMeanUs: us(http.mean),
    httpAddedUs: us(http.mean - baseline),
    httpConcPerSec: http.perSec,
  };
}

const rows: Row[] = [];
const plain = appWith(null);
const unlimited = (i: number) =>
  Promise.resolve(plain.request(PATH, { headers: { "x-bench-ip": `10.0.0.${i & 255}` } }));
// Twice: the first pass only warms the JIT up, so that it does not count against the stores.
await time(unlimited);
const baseline = await time(unlimited);
console.log(
  `hooks off: ${us(baseline.mean)} µs per request, ${baseline.perSec} req/s with ${CONCURRENCY} in flight`,
);

const memory = await openCounterStores({
  rateLimitStore: "memory",
  database: { kind: "sqlite", file: ":memory:" },
});
rows.push(await bench("memory", memory, baseline.mean));

const pgAdmin = process.env.TEST_DATABASE_URL;
if (pgAdmin) {
  const db = await createTestDatabase(pgAdmin, "psm_bench_rl");
  try {
    const pg = await openCounterStores({
      rateLimitStore: "postgres",
      database: { kind: "postgres", url: db.url },
    });
    rows.push(await bench("postgres (UNLOGGED, pool 4)", pg, baseline.mean));
    await pg.close();
  } finally {
    await db.drop();
  }
} else console.log("postgres: skipped (set TEST_DATABASE_URL)");

try {
  const redis = await openCounterStores({
    rateLimitStore: process.env.REDIS_URL ?? "redis://127.0.0.1:6379/15",
    database: { kind: "sqlite", file: ":memory:" },
  });
  rows.push(await bench("redis (EVALSHA)", redis, baseline.mean));
  await redis.close();
} catch (error) {
  console.log(`redis: skipped (${error instanceof Error ? error.message : String(error)})`);
}

console.log(
  `\n${HITS} hits x ${ROUNDS} rounds (medians), ${CLIENTS} keys, ${CONCURRENCY} in flight for the throughput columns`,
);
console.table(rows);
process.exit(0);
