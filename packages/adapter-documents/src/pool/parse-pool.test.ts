import { afterEach, describe, expect, it } from "vitest";
import type { ReadResult, ReadSettings } from "../worker/read-document.js";
import type { ServeSettings } from "../worker/serve.js";
import { createParsePool, type ParsePool } from "./parse-pool.js";

const HOSTILE = new URL("../../test/support/hostile-worker.ts", import.meta.url);
const SETTINGS: ReadSettings & ServeSettings = {
  maxPages: 20,
  maxDeclaredPages: 5000,
  maxPixels: 40_000_000,
  maxPdfInflateBytes: 64 * 1024 * 1024,
  maxOcrPages: 3,
  wantText: false,
  ocrMaxPixels: 4_000_000,
};
const pools: ParsePool<ReadResult>[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(size: number, timeoutMs = 5_000, idleMs = 60_000): ParsePool<ReadResult> {
  const created = createParsePool<ReadResult>({
    entry: HOSTILE,
    settings: SETTINGS,
    size,
    timeoutMs,
    ocrTimeoutMs: 60_000,
    queueWaitMs: 10_000,
    maxQueue: 100,
    heapMb: 64,
    memoryMb: 512,
    idleMs,
  });
  pools.push(created);
  return created;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("createParsePool", () => {
  it("reuses its processes across jobs: twenty jobs, two processes", async () => {
    const p = pool(2);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => p.run(utf8(`Offer ${i}: price $${i + 1}00`))),
    );
    expect(results.map((r) => r.parsed.price)).toEqual(Array.from({ length: 20 }, (_, i) => (i + 1) * 100));
    expect(p.stats()).toMatchObject({ started: 2, running: 0, waiting: 0 });
  });

  it("replaces a killed or crashed process with one new process, and only one", async () => {
    const p = pool(1, 1_500);
    await p.run(utf8("warm up"));
    await expect(p.run(utf8("hostile: loop"))).rejects.toMatchObject({ code: "document_unreadable" });
    await expect(p.run(utf8("hostile: crash"))).rejects.toMatchObject({ code: "document_unreadable" });
    await p.run(utf8("after"));
    await p.run(utf8("after again"));
    expect(p.stats().started).toBe(3);
  });

  it("a job given to a process killed between jobs, before its end is seen, runs on a fresh one", async () => {
    const p = pool(1);
    await p.run(utf8("warm up"));
    for (let round = 0; round < 3; round++) {
      const [pid] = p.stats().pids;
      // In the same turn as the kill: the pool cannot have heard of the exit yet, so the job goes
      // to the dead process, which never takes it.
      process.kill(pid ?? 0, "SIGKILL");
      expect((await p.run(utf8(`Audit from $${round + 1}00`))).parsed.price).toBe((round + 1) * 100);
    }
    expect(p.stats().started).toBe(4);
  });

  it("keeps the other processes' jobs running while one is killed", async () => {
    const p = pool(2, 300);
    const [killed, fine] = await Promise.allSettled([
      p.run(utf8("hostile: loop")),
      p.run(utf8("Bookkeeping from $290 a month")),
    ]);
    expect(killed.status).toBe("rejected");
    expect(fine.status === "fulfilled" ? fine.value.parsed.price : null).toBe(290);
  });

  it("ends a process that stays idle, and starts one again when a job comes", async () => {
    const p = pool(1, 5_000, 50);
    await p.run(utf8("first"));
    const [pid] = p.stats().pids;
    // Waits for the process to end, however long the machine takes: no clock decides the outcome.
    while (pid !== undefined && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(p.stats().pids).toEqual([]);
    expect((await p.run(utf8("Audit from $700"))).parsed.price).toBe(700);
    expect(p.stats().started).toBe(2);
  });
});
