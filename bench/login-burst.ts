/**
 * Login-burst benchmark (issue 7): does argon2id keep the event loop free?
 * Starts the real server in this process (apps/server/dist/main.js, as
 * `pnpm start` runs it: SQLite in a temporary DATA_DIR, RATE_LIMIT=off),
 * creates a user, then a worker thread fires a burst of concurrent logins
 * while reading GET /api/listings beside it. This thread runs only the server,
 * so node:perf_hooks' event-loop delay here is the server's own.
 * Prints logins/s, event-loop delay p50/p99/max and the listing reads' p50/p99,
 * during the burst and, for comparison, under the same reads alone.
 * Run after `pnpm build`: node bench/login-burst.ts [--logins 200] [--concurrency 32] [--readers 4]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

interface Load {
  url: string;
  /** Without logins: the baseline, this many reads alone. */
  baselineReads: number;
  email: string;
  password: string;
  logins: number;
  concurrency: number;
  readers: number;
}

interface LoadResult {
  seconds: number;
  ok: number;
  failed: number;
  reads: number[];
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** The client side, in a worker thread: the logins, and listing reads until they are done. */
async function drive(load: Load): Promise<LoadResult> {
  let next = 0;
  let ok = 0;
  let failed = 0;
  let done = false;
  const reads: number[] = [];
  const body = JSON.stringify({ email: load.email, password: load.password });
  const started = performance.now();
  const readers = Array.from({ length: load.readers }, async () => {
    while (load.logins > 0 ? !done : reads.length < load.baselineReads) {
      const t0 = performance.now();
      await (await fetch(`${load.url}/api/listings`)).arrayBuffer();
      reads.push(performance.now() - t0);
    }
  });
  await Promise.all(
    Array.from({ length: load.concurrency }, async () => {
      while (next++ < load.logins) {
        const res = await fetch(`${load.url}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        await res.arrayBuffer();
        if (res.status === 200) ok++;
        else failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await Promise.all(readers);
  return { seconds, ok, failed, reads };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const address = probe.address();
  await new Promise<void>((done) => probe.close(() => done()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

/** Runs `load` in a worker while this thread's event-loop delay is recorded. */
async function measured(load: Load) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const worker = new Worker(new URL(import.meta.url), { workerData: load });
  const result = await new Promise<LoadResult>((done, fail) => {
    worker.once("message", done);
    worker.once("error", fail);
  });
  delay.disable();
  await worker.terminate();
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  return { result, p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      logins: { type: "string", default: "200" },
      concurrency: { type: "string", default: "32" },
      readers: { type: "string", default: "4" },
    },
  });
  const dataDir = await mkdtemp(join(tmpdir(), "psm-login-burst-"));
  const port = await freePort();
  Object.assign(process.env, {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    RATE_LIMIT: "off",
    LOG_LEVEL: "warn",
  });
  const url = `http://127.0.0.1:${port}`;
  // The composed server, exactly as `pnpm start` runs it, in this thread.
  await import("@psm/server/dist/main.js");
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/api/capabilities`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 300) throw new Error("server did not start in 30 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  const email = "burst@example.com";
  const password = "burst-password-123";
  const signup = await fetch(`${url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (signup.status !== 201) throw new Error(`signup ${signup.status}`);

  const load: Load = {
    url,
    baselineReads: 1000,
    email,
    password,
    logins: Number(values.logins),
    concurrency: Number(values.concurrency),
    readers: Number(values.readers),
  };
  const before = loadavg();
  const idle = await measured({ ...load, logins: 0 });
  const burst = await measured(load);
  const { result } = burst;
  console.log(
    `load average before: ${before.map((x) => x.toFixed(2)).join(" ")} (${availableParallelism()} cores)`,
  );
  console.log(
    `${result.ok} logins (${result.failed} failed) in ${result.seconds.toFixed(2)} s: ${(result.ok / result.seconds).toFixed(1)} logins/s, ${load.concurrency} in flight`,
  );
  for (const [name, run] of [
    ["reads alone", idle],
    ["login burst", burst],
  ] as const) {
    const reads = [...run.result.reads].sort((a, b) => a - b);
    console.log(
      `${name}: event-loop delay p50 ${run.p50} ms, p99 ${run.p99} ms, max ${run.max} ms; ` +
        `GET /api/listings (${reads.length} reads, ${load.readers} in flight) p50 ${pct(reads, 0.5).toFixed(1)} ms, p99 ${pct(reads, 0.99).toFixed(1)} ms`,
    );
  }
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}

if (isMainThread) await main();
else parentPort?.postMessage(await drive(workerData as Load));
