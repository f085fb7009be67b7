import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { openPostgresRateLimitStore, type PostgresRateLimitStore } from "./rate-limit-store.js";

describePostgres("postgres rate-limit store", (ctx) => {
  const opened: PostgresRateLimitStore[] = [];
  const open = async () => {
    const store = openPostgresRateLimitStore({ url: ctx.database().url, sweepIntervalMs: 0 });
    opened.push(store);
    await store.setup();
    return store;
  };
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
  });

  it("setup is idempotent, also when processes start together", async () => {
    await Promise.all([open(), open(), open()]);
    const [{ persistence } = { persistence: "" }] = await ctx.connection().sql<{ persistence: string }[]>`
      select relpersistence as persistence from pg_class where relname = 'rate_limit_hits'`;
    expect(persistence).toBe("u");
  });

  it("counts hits in one window and reports when it ends", async () => {
    const counter = (await open()).counter("a:");
    counter.init({ windowMs: 60_000 });
    const first = await counter.increment("k");
    const second = await counter.increment("k");
    expect([first.totalHits, second.totalHits]).toEqual([1, 2]);
    expect(second.resetTime.getTime()).toBe(first.resetTime.getTime());
    expect(first.resetTime.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await counter.get("k")).toEqual(second);
    expect(await counter.get("other")).toBeUndefined();
  });

  it("concurrent hits from several pools are each counted once", async () => {
    const counters = [await open(), await open(), await open()].map((store) => store.counter("b:"));
    for (const counter of counters) counter.init({ windowMs: 60_000 });
    const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => counters[i % 3]!.increment("k")));
    expect(hits.map((h) => h.totalHits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
  });

  it("a new window starts once the old one ended", async () => {
    const counter = (await open()).counter("c:");
    counter.init({ windowMs: 30 });
    await counter.increment("k");
    await counter.increment("k");
    await sleep(60);
    expect((await counter.increment("k")).totalHits).toBe(1);
  });

  it("decrement never goes below zero; resetKey forgets; sweep deletes ended windows", async () => {
    const store = await open();
    const counter = store.counter("d:");
    counter.init({ windowMs: 60_000 });
    await counter.increment("k");
    await counter.decrement("k");
    await counter.decrement("k");
    expect((await counter.get("k"))?.totalHits).toBe(0);
    await counter.increment("gone");
    await counter.resetKey("gone");
    expect(await counter.get("gone")).toBeUndefined();

    const short = store.counter("e:");
    short.init({ windowMs: 10 });
    await short.increment("k");
    await sleep(30);
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
    expect(await short.get("k")).toBeUndefined();
    expect((await counter.get("k"))?.totalHits).toBe(0);
  });
});
