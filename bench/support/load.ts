/** Drives one endpoint with autocannon: a warm-up, then several rounds; the median round is the figure. */
import { type CannonOptions, type CannonResult, loadAutocannon } from "./modules.js";

/** The same for every endpoint of a run, so the ratios compare like with like. */
export interface LoadSettings {
  connections: number;
  /** Seconds per measured round. */
  duration: number;
  /** Seconds of warm-up (not measured). */
  warmup: number;
  rounds: number;
}

/** One endpoint to drive. */
export interface Target {
  name: string;
  method?: string;
  /** The path, or several that requests rotate over (point reads of different rows). */
  paths: string[];
  headers?: Record<string, string>;
  /** Headers that requests take in turn on top of `headers` (several callers' keys), on the first path. */
  headerSets?: Record<string, string>[];
  body?: string;
  /**
   * The path of every next request, from one counter shared by all connections (distinct
   * queries: a per-connection sequence would have connections ask the same thing at once).
   */
  next?: () => string;
  /** A sequence of different requests each connection sends in turn (a mixed workload); overrides the rest. */
  requests?: { method?: string; path: string; headers?: Record<string, string>; body?: string }[];
}

/** One round's figures. */
export interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** The median round, with the totals of every round (warm-up included) for the counted-views check. */
export interface Measurement extends Round {
  rounds: Round[];
  /** 2xx answers received over the warm-up and all rounds. */
  acknowledged: number;
  /** Requests sent over the warm-up and all rounds (some may be cut off unanswered at the end). */
  sent: number;
  statuses: Record<string, number>;
}

function options(base: string, target: Target, connections: number, duration: number): CannonOptions {
  const [first = "/", ...rest] = target.paths;
  const opts: CannonOptions = { url: `${base}${first}`, connections, duration, timeout: 30 };
  if (target.method) opts.method = target.method;
  if (target.headers) opts.headers = target.headers;
  if (target.body !== undefined) opts.body = target.body;
  if (target.next) {
    const next = target.next;
    opts.requests = [{ path: first, setupRequest: (request) => ({ ...request, path: next() }) }];
  } else if (target.requests) {
    opts.requests = target.requests;
  } else if (rest.length > 0) {
    // Each request's bytes built once: a setupRequest hook would rebuild them on
    // every request, load-generator CPU that the single-path ceilings never spend.
    opts.requests = target.paths.map((path) => ({ path }));
  } else if (target.headerSets) {
    opts.requests = target.headerSets.map((headers) => ({ path: first, headers }));
  }
  return opts;
}

function round(result: CannonResult): Round {
  return {
    // Successful answers only: a fast stream of errors is not throughput.
    rps: result["2xx"] / Math.max(result.duration, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Warm-up, then `rounds` rounds; returns the round with the median requests/s. */
export async function measure(base: string, target: Target, settings: LoadSettings): Promise<Measurement> {
  const cannon = loadAutocannon();
  const results: CannonResult[] = [];
  if (settings.warmup > 0)
    results.push(await cannon(options(base, target, settings.connections, settings.warmup)));
  const measured: Round[] = [];
  for (let i = 0; i < settings.rounds; i++) {
    const result = await cannon(options(base, target, settings.connections, settings.duration));
    results.push(result);
    measured.push(round(result));
  }
  const sorted = [...measured].sort((a, b) => a.rps - b.rps);
  const median = sorted[Math.floor(sorted.length / 2)] ?? { rps: 0, p50: 0, p99: 0, non2xx: 0, errors: 0 };
  const statuses: Record<string, number> = {};
  for (const result of results) {
    for (const [code, stat] of Object.entries(result.statusCodeStats)) {
      statuses[code] = (statuses[code] ?? 0) + stat.count;
    }
  }
  return {
    ...median,
    rounds: measured,
    acknowledged: results.reduce((sum, r) => sum + r["2xx"], 0),
    sent: results.reduce((sum, r) => sum + r.requests.sent, 0),
    statuses,
  };
}
