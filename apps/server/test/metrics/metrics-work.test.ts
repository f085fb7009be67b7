import { createUploadGate } from "@psm/host";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics.js";
import { parsePrometheusText } from "./prometheus-text.js";

// The series whose values a running server rarely shows other than 0 (a pool waiting, a worker
// busy, a queue behind), driven in-process through the same registry and read by the parser.
function metricsWith(options: Partial<Parameters<typeof createMetrics>[0]> = {}) {
  return createMetrics({
    token: undefined,
    uploads: createUploadGate({ maxFileBytes: 1024 }),
    poolSize: 2,
    ...options,
  });
}

async function read(metrics: ReturnType<typeof createMetrics>) {
  const families = parsePrometheusText(await metrics.registry.metrics());
  const value = (name: string, labels: Record<string, string> = {}) =>
    families.get(name)?.series.find((s) => Object.entries(labels).every(([key, v]) => s.labels[key] === v))
      ?.value;
  return { families, value };
}

describe("metrics of work beyond requests", () => {
  it("counts the pool's connections in use and the calls waiting for one, and times each call", async () => {
    const metrics = metricsWith();
    const ends = [1, 2, 3].map(() => metrics.storage.start("listings", "find"));
    let scrape = await read(metrics);
    expect(scrape.value("psm_db_pool_size")).toBe(2);
    expect(scrape.value("psm_db_pool_in_use")).toBe(2);
    expect(scrape.value("psm_db_pool_waiting")).toBe(1);
    ends[0]?.();
    ends[1]?.(new Error("refused"));
    ends[2]?.();
    scrape = await read(metrics);
    expect(scrape.value("psm_db_pool_in_use")).toBe(0);
    expect(scrape.value("psm_db_pool_waiting")).toBe(0);
    const calls = scrape.families.get("psm_storage_call_duration_seconds");
    expect(calls?.type).toBe("histogram");
    const count = (outcome: string) =>
      calls?.series.find((s) => s.labels.outcome === outcome && s.labels.method === "find")?.count;
    expect([count("ok"), count("error")]).toEqual([2, 1]);
  });

  it("counts PostgreSQL's search pool apart: its searches hold none of the main pool's connections", async () => {
    const searchPool = { size: 2, inFlight: 0 };
    const metrics = metricsWith({ searchPool });
    // Three searches (the adapter counts them on its search pool) and one write, in flight.
    const ends = [1, 2, 3].map(() => metrics.storage.start("listings", "find"));
    searchPool.inFlight = 3;
    const write = metrics.storage.start("users", "insert");
    const scrape = await read(metrics);
    expect(scrape.value("psm_db_search_pool_size")).toBe(2);
    expect(scrape.value("psm_db_search_pool_in_use")).toBe(2);
    expect(scrape.value("psm_db_search_pool_waiting")).toBe(1);
    expect(scrape.value("psm_db_pool_in_use")).toBe(1);
    expect(scrape.value("psm_db_pool_waiting")).toBe(0);
    for (const end of ends) end();
    write();
  });

  it("shows the document workers' use, and the mail queue's depth and the age of its oldest due job", async () => {
    const dueAt = new Date(Date.now() - 90_000);
    const metrics = metricsWith({
      documentWorkers: () => ({ size: 2, running: 2, waiting: 3, ocr: 1, pids: [101, 102] }),
      mailBacklog: async () => ({ pending: 4, oldestDueAt: dueAt }),
    });
    const { value } = await read(metrics);
    expect(value("psm_document_processes_size")).toBe(2);
    expect(value("psm_document_processes_live")).toBe(2);
    expect(value("psm_document_processes_running")).toBe(2);
    expect(value("psm_document_processes_waiting")).toBe(3);
    expect(value("psm_document_processes_ocr")).toBe(1);
    expect(value("psm_mail_jobs_pending")).toBe(4);
    expect(value("psm_mail_oldest_due_seconds")).toBeGreaterThanOrEqual(90);
  });

  it("counts answer cache lookups by outcome, so the hit rate is hit / (hit + miss)", async () => {
    const metrics = metricsWith();
    for (const outcome of ["miss", "hit", "hit", "hit", "shared"] as const) metrics.onAnswerCache(outcome);
    const { value } = await read(metrics);
    const lookups = "psm_answer_cache_lookups_total";
    expect([value(lookups, { outcome: "hit" }), value(lookups, { outcome: "miss" })]).toEqual([3, 1]);
    expect(value(lookups, { outcome: "shared" })).toBe(1);
  });
});
