/** `pnpm bench:http`: the ceilings, then our server on SQLite and on PostgreSQL, in one run. */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bestCeilings, type CeilingFigures, type Ceilings, startCeilings } from "./ceilings.js";
import { ENDPOINT, prepareFixtures } from "./endpoints.js";
import {
  describeFootprint,
  type Footprint,
  firstAnswer,
  footprintTargets,
  idleMemory,
  samplePeak,
} from "./footprint.js";
import { documentWork, quietMemory } from "./footprint-documents.js";
import { benchBackend } from "./http-backend.js";
import type { LoadSettings } from "./load.js";
import { REPO_ROOT } from "./modules.js";
import {
  checkTargets,
  markdownTable,
  type Row,
  type RunReport,
  readmeBlock,
  targetLines,
  writeReadme,
} from "./report.js";
import { freshPostgres, postgresAdminUrl, seedPostgres } from "./seed-postgres.js";
import { seedSqlite } from "./seed-sqlite.js";
import { type BenchServer, startBenchServer } from "./server.js";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "32" },
    rounds: { type: "string", default: "3" },
    listings: { type: "string", default: "20000" },
    "no-postgres": { type: "boolean", default: false },
    "no-readme": { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    "no-documents": { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const settings: LoadSettings = {
  duration: Number(args.duration),
  warmup: Number(args.warmup),
  connections: Number(args.connections),
  rounds: Number(args.rounds),
};
const listings = Number(args.listings);
/** Quiet time before the idle figures: long enough for what the start leaves to settle. */
const IDLE_MS = 5_000;
/** Four callers uploading for 10 s; the document processes end 30 s after their last job. */
const DOCUMENT_CALLERS = 4;
const DOCUMENT_SECONDS = 10;
/**
 * After the last request: the document processes gone, then the server's idle collection, which
 * runs 30-60 s into a quiet spell (its timer ticks every 30 s).
 */
const QUIET = { childrenWaitMs: 40_000, settleMs: 65_000 };
/** Where the run's table goes, between its markers (the README keeps a summary and links here). */
const PERFORMANCE_PAGE = "docs/performance.md";
const log = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const work = mkdtempSync(join(tmpdir(), "psm-bench-"));
// Slots high enough that the create endpoint never meets the limit. The compile cache is the
// run's own: firstStart() fills it, and the footprint's starts are restarts.
const serverEnv = {
  LISTING_SLOTS: "personal:10000000,business:10000000,admin:10000000",
  NODE_COMPILE_CACHE: join(work, "compile-cache"),
};
const profileArgs = (name: string) =>
  args.profile ? ["--cpu-prof", `--cpu-prof-dir=${join(work, `profile-${name}`)}`] : [];
const running: { stop(): Promise<unknown> }[] = [];
const started = async <T extends { stop(): Promise<unknown> }>(thing: Promise<T>): Promise<T> => {
  const value = await thing;
  running.push(value);
  return value;
};

/** What each backend's first start measured (firstStart), for the notes. */
const firstStarts: string[] = [];

/** The ceiling servers, started once the SQLite server has answered the page they serve. */
let ceilings: Ceilings | undefined;

/** Seeds, starts, prepares and benchmarks one backend, then stops its server. */
async function runBackend(
  backend: "sqlite" | "postgres",
  env: Record<string, string>,
  seed: () => Promise<{ sampleIds: string[]; ms: number }>,
  onStarted?: (server: BenchServer) => Promise<void>,
) {
  const seeded = await seed();
  log(`${backend}: seeded ${fmt(listings)} listings in ${(seeded.ms / 1000).toFixed(1)} s`);
  const firstStartNote = await firstStart(backend, env);
  log(firstStartNote);
  firstStarts.push(firstStartNote);
  const dataDir = join(work, backend);
  mkdirSync(dataDir, { recursive: true });
  const spawnedAt = performance.now();
  const server = await started(
    startBenchServer({ ...serverEnv, ...env, DATA_DIR: dataDir }, profileArgs(backend)),
  );
  // Issue 30 item 4: the first answer, then the server left alone a few seconds.
  const first = await firstAnswer(server.url, server.pid, spawnedAt);
  const footprint: Footprint = { backend, firstAnswerMs: first.ms, firstAnswerCpuMs: first.cpuMs };
  const idle = await idleMemory(server.pid, IDLE_MS);
  if (idle) footprint.idle = idle;
  const fixtures = await prepareFixtures(server.url, seeded.sampleIds);
  const whole = !args["no-documents"] && !args.only;
  // Documents before the endpoints: their figure is what document work holds, not that on top
  // of the peak the endpoints' rows leave behind (which "RSS under load" reports on its own).
  if (whole) {
    const tokens = fixtures.authors.slice(0, DOCUMENT_CALLERS).map((author) => author.token);
    const uploads = await documentWork(server.url, server.pid, tokens, DOCUMENT_SECONDS);
    log(
      `${backend.padEnd(8)} documents: ${uploads.parsed} parsed, ${uploads.refused} refused (503: all processes busy)`,
    );
    if (uploads.documents) footprint.documents = uploads.documents;
  }
  await onStarted?.(server);
  const sampler = samplePeak(server.pid);
  const result = await benchBackend(backend, server, fixtures, settings, log, {
    only: args.only,
    measureCeilings: () => (ceilings === undefined ? Promise.resolve(undefined) : ceilings.quick()),
    sqliteFile: backend === "sqlite" ? join(dataDir, "marketplace.db") : undefined,
  });
  sampler.stop();
  const load = sampler.peak();
  if (load) footprint.load = load;
  if (whole) {
    const quiet = await quietMemory(server.pid, QUIET);
    if (quiet) footprint.afterDocuments = quiet;
  }
  log(describeFootprint(footprint));
  await server.stop();
  return { ...result, footprint };
}

/**
 * One start of the server to its first answer, then stopped: its modules' compiled code goes
 * into the run's compile cache, so the footprint's start after it is a restart. On SQLite it
 * starts on an empty data folder, as the first start after an install does.
 */
async function firstStart(backend: string, env: Record<string, string>): Promise<string> {
  const dataDir = join(work, `${backend}-first-start`);
  mkdirSync(dataDir);
  const spawnedAt = performance.now();
  const server = await startBenchServer({ ...serverEnv, ...env, DATA_DIR: dataDir });
  const first = await firstAnswer(server.url, server.pid, spawnedAt);
  await server.stop();
  const what =
    backend === "sqlite"
      ? "first start after an install (empty database, empty compile cache)"
      : "first start on PostgreSQL (its driver's modules not yet in the compile cache)";
  return (
    `${backend}: ${what}: first answer ${first.ms.toFixed(0)} ms after the spawn ` +
    `(${first.cpuMs.toFixed(0)} ms of server CPU); the footprint's start after it is a restart.`
  );
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  log(
    `load average ${loadBefore.map((n) => n.toFixed(2)).join(" ")}; ${settings.connections} connections, ` +
      `${settings.warmup} s warm-up, ${settings.rounds} × ${settings.duration} s rounds; work dir ${work}`,
  );
  let ceilingsAtStart: CeilingFigures | undefined;
  const pageFile = join(work, "page.json");
  let pageBytes = 0;

  const sqliteFile = join(work, "sqlite", "marketplace.db");
  mkdirSync(join(work, "sqlite"));
  const sqlite = await runBackend(
    "sqlite",
    {},
    () => seedSqlite(sqliteFile, listings),
    async (server) => {
      // The page ceiling stringifies exactly our default page on every request.
      const page = Buffer.from(await (await fetch(`${server.url}/api/listings`)).arrayBuffer());
      writeFileSync(pageFile, page);
      pageBytes = page.length;
      ceilings = await started(startCeilings(pageFile, settings, log));
      ceilingsAtStart = await ceilings.measure();
    },
  );
  const rows: Row[] = [...sqlite.rows];
  const footprints: Footprint[] = [sqlite.footprint];
  const notes: string[] = [];
  const hitRates: string[] = [];
  const noteHitRate = (backend: string, rate: number | undefined) => {
    if (rate !== undefined) hitRates.push(`${backend} ${(rate * 100).toFixed(1)} %`);
  };
  noteHitRate("SQLite", sqlite.mixedHitRate);
  let postgresCounted: boolean | undefined;

  const adminUrl = postgresAdminUrl();
  if (args["no-postgres"] || adminUrl === undefined) {
    notes.push("PostgreSQL not measured: set TEST_DATABASE_URL (or a postgres DATABASE_URL) to include it.");
  } else {
    const database = await freshPostgres(adminUrl, "psm_bench");
    try {
      const pg = await runBackend(
        "postgres",
        {
          DATABASE_URL: database.url,
          // The pools' sizes pass through, for runs that compare them.
          ...setVariables(process.env, ["PG_POOL_MAX", "PG_SEARCH_POOL_MAX"]),
        },
        () => seedPostgres(database.url, listings),
      );
      rows.push(...pg.rows);
      footprints.push(pg.footprint);
      noteHitRate("PostgreSQL", pg.mixedHitRate);
      postgresCounted = pg.views.counted;
      if (!pg.views.counted) notes.push("PostgreSQL: view count mismatch (see the run log).");
    } finally {
      await database.drop();
    }
  }
  if (!ceilings || !ceilingsAtStart) throw new Error("the ceilings were not measured");
  const ceilingsAtEnd = await ceilings.measure();
  await ceilings.stop();
  const ceilingRows = bestCeilings(ceilingsAtStart, ceilingsAtEnd);
  rows.unshift(...ceilingRows);
  const [hello, payload] = ceilingRows;
  notes.push(
    `Ceilings measured at the start and at the end of the run (hello ${fmt(ceilingsAtStart.hello.rps)} / ` +
      `${fmt(ceilingsAtEnd.hello.rps)}, page ${fmt(ceilingsAtStart.payload.rps)} / ${fmt(ceilingsAtEnd.payload.rps)} req/s); ` +
      "each endpoint's ratios use the faster of the ceilings measured just before and just after it (one round each), " +
      "the ceiling rows the faster of the run's start and end.",
  );
  notes.push(...firstStarts, ...footprints.map(describeFootprint));
  if (hitRates.length > 0)
    notes.push(`Answer cache hit rate over the mixed workload: ${hitRates.join(", ")}.`);
  const logins = rows.filter((r) => r.endpoint === ENDPOINT.login);
  notes.push(
    `Logins/s (argon2id, m=19 MiB, t=2): ${logins.map((r) => `${r.backend} ${r.rps.toFixed(1)}`).join(", ")}.`,
  );

  const date = new Date().toISOString();
  const cpu = cpus();
  const report: RunReport = {
    date,
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}, ${process.platform}`,
    settings:
      `autocannon, ${settings.connections} connections, ${settings.warmup} s warm-up, median of ` +
      `${settings.rounds} × ${settings.duration} s rounds, ${fmt(listings)} listings, RATE_LIMIT=off, LOG_LEVEL=info`,
    load: { before: loadBefore, after: loadavg() },
    ceilings: { hello: hello?.rps ?? 0, payload: payload?.rps ?? 0, payloadBytes: pageBytes },
    rows,
    targets: [],
    notes,
  };
  report.targets = checkTargets(rows, report.ceilings, {
    sqlite: sqlite.views.counted,
    postgres: postgresCounted,
  });
  report.targets.push(...footprints.flatMap(footprintTargets));
  report.footprint = footprints;
  log(`\n${markdownTable(report)}\n\n${targetLines(report.targets)}\n\n${notes.join("\n")}`);
  log(`load average at the end ${report.load.after.map((n) => n.toFixed(2)).join(" ")}`);
  // A partial run (--only, or without PostgreSQL or the documents) must not replace the day's
  // results or the README's table: a quick SQLite run used to overwrite the day's whole run.
  const whole = !args.only && postgresCounted !== undefined && !args["no-documents"];
  if (!whole) log("a partial run: bench/results and docs/performance.md left as they are");
  if (whole) {
    mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
    const out = join(REPO_ROOT, `bench/results/http-${date.slice(0, 10)}.json`);
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${out}`);
    if (!args["no-readme"]) {
      writeReadme(join(REPO_ROOT, PERFORMANCE_PAGE), readmeBlock(report));
      // `pnpm lint` checks the docs' formatting too: lay the new table out as Biome does.
      spawnSync(join(REPO_ROOT, "node_modules/.bin/biome"), ["format", "--write", PERFORMANCE_PAGE], {
        cwd: REPO_ROOT,
        stdio: "ignore",
      });
    }
  }
  if (args.profile) log(`CPU profiles under ${work}/profile-*`);
}

try {
  await main();
} finally {
  await Promise.all(running.map((r) => r.stop()));
  if (!args.profile) rmSync(work, { recursive: true, force: true });
}

/** The variables of `env` named in `names` that are set. */
function setVariables(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}
