import type { AnswerCacheOutcome } from "@psm/adapter-http";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { StorageCallObserver } from "./storage-calls.js";

/** A queue's depth and the due time of its oldest due item, as the repositories report them. */
export type Backlog = () => Promise<{ pending: number; oldestDueAt: Date | null }>;

/** How busy the document processes are now (adapter-documents' `stats()`). */
export interface DocumentUse {
  /** The most processes that run at once. */
  size: number;
  running: number;
  waiting: number;
  /** Jobs reading an image with OCR now (one per caller at most). */
  ocr: number;
  pids: number[];
}

/** Storage call timings: 0.5 ms to 10 s. */
const STORAGE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** How busy PostgreSQL's search pool is, as the adapter counts it (its `searchPool`). */
export interface SearchPoolUse {
  readonly size: number;
  /** Searches running or waiting for one of its connections now. */
  readonly inFlight: number;
}

/**
 * Storage calls and the database pools. The main pool's use is read from the calls in flight: each
 * holds at most one connection at a time (a unit of work is one call), so `min(in flight, size)` are
 * in use and the rest wait for one. On PostgreSQL searches run on a pool of their own, which the
 * adapter counts: those calls are its, not the main pool's. The storage adapters expose no pool
 * counters of their own (postgres.js has none); SQLite has one connection, and its calls run on the
 * event loop.
 */
export function watchStorage(
  registers: Registry[],
  poolSize: number,
  searchPool?: SearchPoolUse,
): StorageCallObserver & { readonly inFlight: number } {
  let inFlight = 0;
  const calls = new Histogram({
    name: "psm_storage_call_duration_seconds",
    help: "Time of each storage call (waiting for a connection included), by repository, method and outcome",
    labelNames: ["repository", "method", "outcome"] as const,
    buckets: STORAGE_BUCKETS,
    registers,
  });
  const mainInFlight = () => Math.max(0, inFlight - (searchPool?.inFlight ?? 0));
  const mainSize = "Connections the database pool may open (PG_POOL_MAX; 1 for SQLite)";
  poolGauges(registers, "psm_db_pool", poolSize, mainInFlight, mainSize);
  if (searchPool) {
    const searchSize = "Connections PostgreSQL's search pool may open (PG_SEARCH_POOL_MAX)";
    poolGauges(registers, "psm_db_search_pool", searchPool.size, () => searchPool.inFlight, searchSize);
  }
  return {
    get inFlight() {
      return inFlight;
    },
    start(repository, method) {
      inFlight++;
      const stop = calls.startTimer({ repository, method });
      return (error) => {
        inFlight--;
        stop({ outcome: error === undefined ? "ok" : "error" });
      };
    },
  };
}

/** A pool's size, its connections in use and the calls waiting for one, from its calls in flight. */
function poolGauges(
  registers: Registry[],
  prefix: string,
  size: number,
  inFlight: () => number,
  help: string,
) {
  new Gauge({ name: `${prefix}_size`, help, registers }).set(size);
  new Gauge({
    name: `${prefix}_in_use`,
    help: "Connections busy with a storage call now",
    registers,
    collect() {
      this.set(Math.min(inFlight(), size));
    },
  });
  new Gauge({
    name: `${prefix}_waiting`,
    help: "Storage calls waiting for a free connection now",
    registers,
    collect() {
      this.set(Math.max(0, inFlight() - size));
    },
  });
}

/** Document parse and OCR workers: size, running and waiting jobs of each pool. */
export function watchWorkers(registers: Registry[], stats: () => DocumentUse): void {
  const gauges = [
    ["size", "Document processes that may run at once", (use: DocumentUse) => use.size],
    [
      "live",
      "Document processes running now (started on first use, ended when idle)",
      (use: DocumentUse) => use.pids.length,
    ],
    ["running", "Documents being read now, OCR included", (use: DocumentUse) => use.running],
    [
      "waiting",
      "Documents waiting for a free process (bounded; past the bound 503)",
      (use: DocumentUse) => use.waiting,
    ],
    ["ocr", "Documents being read with OCR now (one per caller at most)", (use: DocumentUse) => use.ocr],
  ] as const;
  for (const [name, help, read] of gauges) {
    new Gauge({
      name: `psm_document_processes_${name}`,
      help,
      registers,
      collect() {
        this.set(read(stats()));
      },
    });
  }
}

/**
 * A durable queue's depth and age, read from storage once per scrape: a dispatcher that falls
 * behind shows as a growing age.
 */
export function watchBacklog(
  registers: Registry[],
  queue: { pending: string; age: string; what: string; backlog: Backlog },
): void {
  let latest: ReturnType<Backlog> | undefined;
  const read = () => {
    latest ??= queue.backlog().finally(() => {
      latest = undefined;
    });
    return latest;
  };
  new Gauge({
    name: queue.pending,
    help: `${queue.what} waiting for their first or next attempt`,
    registers,
    async collect() {
      this.set((await read()).pending);
    },
  });
  new Gauge({
    name: queue.age,
    help: `How long the oldest due item of the ${queue.what.toLowerCase()} has waited past its due time (0: none due)`,
    registers,
    async collect() {
      const { oldestDueAt } = await read();
      this.set(oldestDueAt === null ? 0 : Math.max(0, (Date.now() - oldestDueAt.getTime()) / 1000));
    },
  });
}

/** The answer cache's lookups by outcome: its hit rate is hit / (hit + miss). */
export function watchAnswerCache(registers: Registry[]): (outcome: AnswerCacheOutcome) => void {
  const lookups = new Counter({
    name: "psm_answer_cache_lookups_total",
    help: "Anonymous listing reads (API answers and pages) looked up in the answer cache, by outcome: hit (kept answer), miss (read from storage) or shared (joined a read in flight)",
    labelNames: ["outcome"] as const,
    registers,
  });
  for (const outcome of ["hit", "miss", "shared"] as const) lookups.inc({ outcome }, 0);
  return (outcome) => lookups.inc({ outcome });
}
