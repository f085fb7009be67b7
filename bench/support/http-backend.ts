/** Benchmarks one seeded server (SQLite or PostgreSQL): every endpoint, then the counted-views check. */
import { ENDPOINT, type Fixtures, targets, viewsOf } from "./endpoints.js";
import { cpuMs, postgresCpuMs, treeMemory } from "./footprint.js";
import { searchesMerged } from "./index-segments.js";
import { type LoadSettings, type Measurement, measure, type Target } from "./load.js";
import type { Row } from "./report.js";
import type { BenchServer } from "./server.js";

/**
 * The endpoints `only` names: parts separated by `|`, each an exact name or else every name
 * containing it, in table order; all when undefined.
 */
function pick(all: Target[], only: string | undefined): Target[] {
  if (only === undefined) return all;
  const parts = only.split("|");
  const named = (part: string) => {
    const exact = all.filter((t) => t.name === part);
    return exact.length > 0 ? exact : all.filter((t) => t.name.includes(part));
  };
  const chosen = new Set(parts.flatMap(named));
  return all.filter((t) => chosen.has(t));
}

/** The server's RSS now, and how much of it is mapped files (code, SQLite's mapped database). */
function rssNow(pid: number): string {
  const now = treeMemory(pid);
  return now === undefined ? "?" : `${now.rssMiB.toFixed(0)} MiB (${now.fileMiB.toFixed(0)} MiB files)`;
}

/**
 * The ceilings of an endpoint: the faster of those measured just before and
 * just after it, so a slow spell during one of them cannot flatter its ratios.
 */
function fasterOf(a: Row["ceilings"], b: Row["ceilings"]): Row["ceilings"] {
  if (a === undefined || b === undefined) return a ?? b;
  return { hello: Math.max(a.hello, b.hello), payload: Math.max(a.payload, b.payload) };
}

/** The answer cache's lookups so far by outcome, from the server's /metrics (loopback callers may read it). */
export async function cacheLookups(base: string): Promise<{ kept: number; all: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const count = (outcome: string) =>
    Number(
      new RegExp(`^psm_answer_cache_lookups_total\\{outcome="${outcome}"\\} (\\S+)$`, "m").exec(text)?.[1] ??
        Number.NaN,
    );
  // A read joined in flight costs no storage read either.
  const kept = count("hit") + count("shared");
  return { kept, all: kept + count("miss") };
}

/** The rows of one backend and what the view check found. */
export interface BackendResult {
  rows: Row[];
  /** The answer cache's hit rate over the mixed workload (its measured rounds and warm-up). */
  mixedHitRate?: number;
  measurements: Record<string, Measurement>;
  views: { before: number; after: number; acknowledged: number; sent: number; counted: boolean };
}

/**
 * Server CPU per request sent since `before` (the warm-up's too), and on PostgreSQL the database's:
 * what a request costs, which contention on the shared cores moves far less than its req/s.
 */
function perRequest(
  before: { server: number; postgres: number },
  pid: number,
  backend: Row["backend"],
  sent: number,
): string {
  const us = (ms: number) => `${((ms * 1000) / Math.max(1, sent)).toFixed(0)} µs`;
  const server = `server ${us(cpuMs(pid) - before.server)}`;
  return backend === "postgres" ? `${server}, postgres ${us(postgresCpuMs() - before.postgres)}` : server;
}

/** What benchBackend measures besides the endpoints, and which of them. */
export interface BackendOptions {
  /** The endpoints to measure (pick); all when undefined. */
  only?: string | undefined;
  /** Measures the ceilings around each endpoint, for its ratios (Row.ceilings). */
  measureCeilings?: () => Promise<Row["ceilings"]>;
  /** SQLite's database file: the distinct searches' rows wait for its merged search indexes. */
  sqliteFile?: string | undefined;
}

/**
 * Drives every endpoint in turn. The view check: each acknowledged increment
 * must be counted (acknowledged <= counted), and nothing counted that was
 * never sent (counted <= sent; requests cut off at the end of a round may be
 * counted without an answer).
 */
export async function benchBackend(
  backend: Row["backend"],
  server: BenchServer,
  fixtures: Fixtures,
  settings: LoadSettings,
  log: (line: string) => void,
  options: BackendOptions = {},
): Promise<BackendResult> {
  const { only, measureCeilings } = options;
  const beforeTarget = options.sqliteFile ? searchesMerged(options.sqliteFile, log) : undefined;
  const rows: Row[] = [];
  const measurements: Record<string, Measurement> = {};
  const viewsBefore = await viewsOf(server.url, fixtures.viewId);
  let before = await measureCeilings?.();
  let mixedHitRate: number | undefined;
  for (const target of pick(targets(fixtures), only)) {
    await beforeTarget?.(target);
    const lookupsBefore = target.name === ENDPOINT.mixed ? await cacheLookups(server.url) : undefined;
    const cpuBefore = { server: cpuMs(server.pid), postgres: backend === "postgres" ? postgresCpuMs() : 0 };
    const m = await measure(server.url, target, settings);
    const cpu = perRequest(cpuBefore, server.pid, backend, m.sent);
    if (lookupsBefore !== undefined) {
      const after = await cacheLookups(server.url);
      mixedHitRate = (after.kept - lookupsBefore.kept) / Math.max(1, after.all - lookupsBefore.all);
      log(`${backend.padEnd(8)} mixed workload: answer cache hit rate ${(mixedHitRate * 100).toFixed(1)} %`);
    }
    const after = await measureCeilings?.();
    const ceilings = fasterOf(before, after);
    before = after;
    measurements[target.name] = m;
    const failures = m.rounds.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    rows.push({ backend, endpoint: target.name, rps: m.rps, p50: m.p50, p99: m.p99, failures, ceilings });
    log(
      `${backend.padEnd(8)} ${target.name.padEnd(42)} ${m.rps.toFixed(0).padStart(7)} req/s  ` +
        `p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms  rounds ${m.rounds.map((r) => r.rps.toFixed(0)).join("/")}` +
        // The RSS right after: which rows grow it (the footprint's peak is over all of them).
        `  rss ${rssNow(server.pid)}  cpu/request ${cpu}` +
        (failures > 0 ? `  statuses ${JSON.stringify(m.statuses)}` : ""),
    );
  }
  const viewed = measurements[ENDPOINT.view];
  const after = await viewsOf(server.url, fixtures.viewId);
  const acknowledged = viewed?.acknowledged ?? 0;
  const sent = viewed?.sent ?? 0;
  const delta = after - viewsBefore;
  const counted = delta >= acknowledged && delta <= sent;
  log(
    `${backend.padEnd(8)} views: ${acknowledged} acknowledged, ${delta} counted, ${sent} sent -> ${counted ? "ok" : "MISMATCH"}`,
  );
  return {
    rows,
    measurements,
    views: { before: viewsBefore, after, acknowledged, sent, counted },
    ...(mixedHitRate === undefined ? {} : { mixedHitRate }),
  };
}
