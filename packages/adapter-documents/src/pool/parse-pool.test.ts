import { afterEach, describe, expect, it } from "vitest";
import type { ReadResult, ReadSettings } from "../worker/read-document.js";
import { createParsePool, type ParsePool } from "./parse-pool.js";

const HOSTILE = new URL("../../test/support/hostile-worker.ts", import.meta.url);
const SETTINGS: ReadSettings = {
  maxPages: 20,
  maxDeclaredPages: 5000,
  maxPixels: 40_000_000,
  maxPdfInflateBytes: 64 * 1024 * 1024,
  maxOcrPages: 3,
  wantText: false,
};
const pools: ParsePool<ReadResult>[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(size: number, timeoutMs = 5_000): ParsePool<ReadResult> {
  const created = createParsePool<ReadResult>({
    entry: HOSTILE,
    workerData: SETTINGS,
    size,
    timeoutMs,
    queueWaitMs: 10_000,
    maxQueue: 100,
    memoryMb: 64,
  });
  pools.push(created);
  return created;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const noOcr = async () => ({ text: "", confidence: 0 });

describe("createParsePool", () => {
  it("reuses its workers across jobs: twenty jobs, two threads", async () => {
    const p = pool(2);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => p.run(utf8(`Offer ${i}: price $${i + 1}00`), noOcr)),
    );
    expect(results.map((r) => r.parsed.price)).toEqual(Array.from({ length: 20 }, (_, i) => (i + 1) * 100));
    expect(p.stats()).toEqual({ started: 2, running: 0, waiting: 0 });
  });

  it("replaces a killed worker with one new thread, and only one", async () => {
    const p = pool(1, 1_500);
    await p.run(utf8("warm up"), noOcr);
    await expect(p.run(utf8("hostile: loop"), noOcr)).rejects.toMatchObject({ code: "document_unreadable" });
    await expect(p.run(utf8("hostile: allocate heap"), noOcr)).rejects.toMatchObject({
      code: "payload_too_large",
    });
    await p.run(utf8("after"), noOcr);
    await p.run(utf8("after again"), noOcr);
    expect(p.stats().started).toBe(3);
  });

  it("keeps the other workers' jobs running while one is killed", async () => {
    const p = pool(2, 300);
    const [killed, fine] = await Promise.allSettled([
      p.run(utf8("hostile: loop"), noOcr),
      p.run(utf8("Bookkeeping from $290 a month"), noOcr),
    ]);
    expect(killed.status).toBe("rejected");
    expect(fine.status === "fulfilled" ? fine.value.parsed.price : null).toBe(290);
  });
});
