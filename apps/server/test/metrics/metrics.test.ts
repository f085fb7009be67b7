import { createMarketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { createHost, createUploadGate } from "@psm/host";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics.js";
import { lines, runCli, tempDirs } from "../cli/run-cli.js";
import { useShared } from "../support/harness.js";
import { call, type Reply } from "../support/http.js";
import { type Family, parsePrometheusText, type Series } from "./prometheus-text.js";

// GET /metrics as Prometheus scrapes it: the compiled server, then its answer read by a strict
// parser of the Prometheus text format (prometheus-text.ts). The guard's refusal of a non-loopback caller is checked in-process,
// where the host's socket address can be any address.

const REQUESTS = "psm_http_request_duration_seconds";
const REFUSALS = "psm_rate_limit_refusals_total";
const TOKEN = "scrape-token-0123456789abcdef";

/** A scrape: the families by name. */
type Scrape = Map<string, Family>;

async function scrape(base: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${base}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return parsePrometheusText(await response.text());
}

function family(metrics: Scrape, name: string): Family {
  const found = metrics.get(name);
  if (!found) throw new Error(`no ${name} in the scrape: ${[...metrics.keys()].join(", ")}`);
  return found;
}

/** The series of a family whose labels include `labels`. */
function series(metrics: Scrape, name: string, labels: Record<string, string>): Series | undefined {
  return family(metrics, name).series.find((s) =>
    Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
}

/** Every label set of the request histogram, one string each. */
function requestSeries(metrics: Scrape): string[] {
  return family(metrics, REQUESTS)
    .series.map((s) => `${s.labels.method} ${s.labels.operation} ${s.labels.status}`)
    .sort();
}

function hostilePaths(): string[] {
  const id = () => crypto.randomUUID();
  return [`/api/listings/${id()}`, `/nonexistent/${id()}`, `/${id()}/${id()}?q=${id()}`, `/mcp/${id()}`];
}

describe("GET /metrics on a running server (no METRICS_TOKEN, RATE_LIMIT on)", () => {
  const server = useShared((h) =>
    h.dataDir().then((dataDir) => h.server({ dataDir, env: { RATE_LIMIT: "on", ANSWER_CACHE_MS: "5000" } })),
  );
  const hostile = hostilePaths();

  it("answers a loopback caller with every series, requests labelled by route pattern", async () => {
    const { url } = server();
    expect((await call(url, "GET", "/api/listings")).status).toBe(200);
    expect((await call(url, "GET", "/healthz")).status).toBe(200);
    for (const path of hostile) expect((await call(url, "GET", path)).status).toBe(404);
    const metrics = await scrape(url);

    const requests = family(metrics, REQUESTS);
    expect(requests.type).toBe("histogram");
    const listings = series(metrics, REQUESTS, { method: "GET", operation: "/api/listings", status: "200" });
    expect(listings?.count).toBe(1);
    expect([...(listings?.buckets?.keys() ?? [])]).toEqual([
      "0.005",
      "0.01",
      "0.025",
      "0.05",
      "0.1",
      "0.25",
      "0.5",
      "1",
      "2.5",
      "5",
      "10",
      "+Inf",
    ]);
    expect(listings?.buckets?.get("+Inf")).toBe(1);
    expect(listings?.sum).toBeGreaterThan(0);
    expect(series(metrics, REQUESTS, { operation: "/healthz", status: "200" })).toBeDefined();
    const byId = series(metrics, REQUESTS, { method: "GET", operation: "/api/listings/:id", status: "404" });
    expect(byId?.count).toBe(1);
    expect(series(metrics, REQUESTS, { operation: "unmatched", status: "404" })?.count).toBe(3);

    // Event-loop delay and the process's own series: prom-client's default metrics.
    for (const name of [
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "process_start_time_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_active_handles_total",
    ]) {
      expect(family(metrics, name).series.length, name).toBeGreaterThan(0);
    }
    expect(family(metrics, "nodejs_eventloop_lag_seconds").type).toBe("gauge");
    expect(family(metrics, "psm_upload_bytes_held").series[0]?.value).toBe(0);
    expect(family(metrics, "psm_upload_bytes_budget").series[0]?.value).toBeGreaterThan(0);
    // The webhook queue, read from the database at each scrape: empty on a new server.
    expect(family(metrics, "psm_webhook_deliveries_pending").series[0]?.value).toBe(0);
    expect(family(metrics, "psm_webhook_oldest_due_seconds").series[0]?.value).toBe(0);
    // The mail queue likewise; no mail was asked for.
    expect(family(metrics, "psm_mail_jobs_pending").series[0]?.value).toBe(0);
    expect(family(metrics, "psm_mail_oldest_due_seconds").series[0]?.value).toBe(0);
    // Storage calls by repository and method; SQLite's pool is its one connection.
    const finds = series(metrics, "psm_storage_call_duration_seconds", {
      repository: "listings",
      method: "search",
    });
    expect(finds?.count).toBeGreaterThanOrEqual(1);
    expect(family(metrics, "psm_db_pool_size").series[0]?.value).toBe(1);
    expect(family(metrics, "psm_db_pool_in_use").series[0]?.value).toBeLessThanOrEqual(1);
    expect(family(metrics, "psm_db_pool_waiting").series.length).toBe(1);
    // The document processes: none started, none busy.
    expect(family(metrics, "psm_document_processes_size").series[0]?.value).toBeGreaterThan(0);
    for (const name of ["live", "running", "waiting", "ocr"])
      expect(family(metrics, `psm_document_processes_${name}`).series[0]?.value, name).toBe(0);
    // The answer cache: the first anonymous read of the listings was a miss.
    const lookups = "psm_answer_cache_lookups_total";
    expect(family(metrics, lookups).type).toBe("counter");
    expect(series(metrics, lookups, { outcome: "miss" })?.value).toBeGreaterThanOrEqual(1);
    expect(series(metrics, lookups, { outcome: "hit" })).toBeDefined();
    // decisions.md: /openapi.json describes every route the server serves.
    const doc = await call(url, "GET", "/openapi.json");
    expect(doc.body.paths?.["/metrics"]?.get?.operationId).toBe("metrics");
  });

  it("counts every anonymous listing read's answer cache lookup once, by its outcome", async () => {
    const { url } = server();
    const lookups = (metrics: Scrape, outcome: string) =>
      series(metrics, "psm_answer_cache_lookups_total", { outcome })?.value ?? Number.NaN;
    const before = await scrape(url);
    for (let i = 0; i < 3; i++) expect((await call(url, "GET", "/api/listings?limit=7")).status).toBe(200);
    const after = await scrape(url);
    const moved = (outcome: string) => lookups(after, outcome) - lookups(before, outcome);
    // A kept answer is a hit; a miss reads, and a read joined in flight is shared (sequential here: none).
    expect(moved("hit") + moved("miss")).toBe(3);
    expect(moved("shared")).toBe(0);
    expect(moved("miss")).toBeGreaterThanOrEqual(1);
  });

  it("makes no new series for hostile paths: their label values come from the route table", async () => {
    const { url } = server();
    await scrape(url); // from now on the scrapes have their own series
    const before = requestSeries(await scrape(url));
    const more = [...hostilePaths(), ...hostilePaths(), ...hostilePaths()];
    for (const path of more) expect((await call(url, "GET", path)).status).toBe(404);
    const metrics = await scrape(url);
    expect(requestSeries(metrics)).toEqual(before);
    const values = family(metrics, REQUESTS).series.flatMap((s) => Object.values(s.labels));
    for (const path of [...hostile, ...more]) {
      const uuid = /[0-9a-f]{8}-[0-9a-f-]{27}/.exec(path)?.[0] ?? path;
      expect(
        values.some((value) => value.includes(uuid)),
        path,
      ).toBe(false);
    }
  });

  it("counts a rate-limit refusal under its class", async () => {
    const { url } = server();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await call(url, "POST", "/api/auth/reset-password", {
        body: { email: `metrics${i}@example.com` },
      });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const metrics = await scrape(url);
    expect(family(metrics, REFUSALS).type).toBe("counter");
    expect(series(metrics, REFUSALS, { class: "reset" })?.value).toBe(1);
    for (const klass of ["read", "write", "login", "confirm", "signup", "upload"]) {
      expect(series(metrics, REFUSALS, { class: klass })?.value, klass).toBe(0);
    }
    const refused = series(metrics, REQUESTS, {
      method: "POST",
      operation: "/api/auth/reset-password",
      status: "429",
    });
    expect(refused?.count).toBe(1);
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  const server = useShared((h) =>
    h.dataDir().then((dataDir) => h.server({ dataDir, env: { METRICS_TOKEN: TOKEN } })),
  );

  it("answers 401 {error, code} without the token, from loopback too, and 200 with it", async () => {
    const { url } = server();
    const refusals: Reply[] = [
      await call(url, "GET", "/metrics"),
      await call(url, "GET", "/metrics", { token: `${TOKEN}x` }),
      await call(url, "GET", "/metrics", { token: TOKEN.slice(0, -1) }),
      await call(url, "GET", "/metrics", { headers: { authorization: `Basic ${btoa(`x:${TOKEN}`)}` } }),
    ];
    for (const reply of refusals) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ error: expect.any(String), code: "unauthenticated" });
      expect(reply.headers.get("cache-control")).toBe("no-store");
      expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    const metrics = await scrape(url, { authorization: `Bearer ${TOKEN}` });
    expect(family(metrics, REQUESTS).series.length).toBeGreaterThan(0);
    expect(series(metrics, REQUESTS, { operation: "/metrics", status: "401" })).toBeDefined();
  });

  it("never prints the token: not in the server's log, not in check-config", async () => {
    expect(server().output()).not.toContain(TOKEN);
    const dirs = tempDirs();
    try {
      const run = await runCli(["check-config"], { METRICS_TOKEN: TOKEN }, await dirs.make());
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout)).toHaveLength(1);
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
      const weak = await runCli(["check-config"], { METRICS_TOKEN: "tooshort" }, await dirs.make());
      expect(weak.code).not.toBe(0);
      expect(weak.stderr).toMatch(/METRICS_TOKEN/);
      expect(weak.stdout + weak.stderr).not.toContain("tooshort");
    } finally {
      await dirs.cleanup();
    }
  });
});

describe("the /metrics guard in-process, from any socket address", () => {
  /** The metrics surface alone under a host whose peer is `peer`. */
  function hostFrom(peer: string, options: { token?: string; trustProxy?: string[] } = {}) {
    const metrics = createMetrics({
      token: options.token,
      uploads: createUploadGate({ maxFileBytes: 1024 }),
      poolSize: 1,
    });
    return createHost({
      marketplace: createMarketplace(createTestDeps()),
      corsOrigins: "*",
      socketAddress: () => peer,
      trustProxy: options.trustProxy ?? [],
      surfaces: [metrics.surface(undefined)],
      onRequestEnd: metrics.onRequestEnd,
    });
  }

  it("refuses a non-loopback caller 403 {error, code} when no token is set", async () => {
    const response = await hostFrom("203.0.113.9").request("/metrics");
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: expect.any(String), code: "forbidden" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("believes X-Forwarded-For only from a TRUST_PROXY proxy", async () => {
    const spoofed = { headers: { "x-forwarded-for": "127.0.0.1" } };
    expect((await hostFrom("203.0.113.9").request("/metrics", spoofed)).status).toBe(403);
    // A proxy on this machine forwarding a remote client: the client is who asks.
    const forwarded = { headers: { "x-forwarded-for": "198.51.100.4" } };
    expect(
      (await hostFrom("127.0.0.1", { trustProxy: ["127.0.0.1"] }).request("/metrics", forwarded)).status,
    ).toBe(403);
    // The same proxy, untrusted: its own loopback address is the caller.
    expect((await hostFrom("127.0.0.1").request("/metrics", forwarded)).status).toBe(200);
  });

  it("answers loopback callers in every spelling, and asks everyone for the token once one is set", async () => {
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.8.9.10"]) {
      expect((await hostFrom(peer).request("/metrics")).status, peer).toBe(200);
    }
    const guarded = hostFrom("127.0.0.1", { token: TOKEN });
    expect((await guarded.request("/metrics")).status).toBe(401);
    const remote = hostFrom("203.0.113.9", { token: TOKEN });
    const ok = await remote.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("# TYPE psm_http_request_duration_seconds histogram");
  });
});
