/** `node bench/ab.ts`: two builds, one seeded database, rows alternating between them. */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ENDPOINT, prepareFixtures, targets } from "./endpoints.js";
import { cpuMs, type PeakSampler, samplePeak } from "./footprint.js";
import { cacheLookups } from "./http-backend.js";
import { measure, type Target } from "./load.js";
import { REPO_ROOT } from "./modules.js";
import { seedSqlite } from "./seed-sqlite.js";
import { type BenchServer, startBenchServer } from "./server.js";
import { median } from "./timing.js";

const { values: args } = parseArgs({
  options: {
    base: { type: "string" },
    head: { type: "string", default: join(REPO_ROOT, "apps/server/bin/psm-server.js") },
    only: {
      type: "string",
      default: [ENDPOINT.byId, ENDPOINT.messages, ENDPOINT.keys, ENDPOINT.myListings].join("|"),
    },
    rounds: { type: "string", default: "8" },
    // Runtime flags of one build's server (space-separated), for an A/B of a flag on one build.
    "base-node-args": { type: "string" },
    "head-node-args": { type: "string" },
    // The environment the image sets ("K=V K=V"), replaced for one build: an A/B of glibc's settings.
    "base-env": { type: "string" },
    "head-env": { type: "string" },
    duration: { type: "string", default: "2" },
    listings: { type: "string", default: "20000" },
  },
});
if (args.base === undefined)
  throw new Error("--base <another build's apps/server/bin/psm-server.js> is required");

const rounds = Math.max(1, Number(args.rounds));
// One round per measurement and a second of warm-up: the pairing, not the length, beats the drift.
const settings = { connections: 32, duration: Number(args.duration), warmup: 1, rounds: 1 };
const wanted = args.only.split("|").filter(Boolean);

/**
 * Rounds that must all agree before a difference is named: with no difference at all, 6 rounds
 * fall on one side by chance 3 % of the time (2 × 0.5^6), 8 rounds 0.8 %.
 */
const AGREEING_ROUNDS = 6;

/** One build's server, its rows, and what each row measured per round. */
interface Build {
  name: "base" | "head";
  server: BenchServer;
  rows: Target[];
  rps: Map<string, number[]>;
  cpu: Map<string, number[]>;
  /** The answer cache's lookups over each row's rounds: answered from it, and in all. */
  lookups: Map<string, { kept: number; all: number }>;
  /** The server's RSS, sampled over the whole run. */
  memory: PeakSampler;
}

const callerNodeArgs = process.env.PSM_BENCH_NODE_ARGS;
const callerRuntimeEnv = process.env.PSM_BENCH_RUNTIME_ENV;
const work = mkdtempSync(join(tmpdir(), "psm-ab-"));
const builds: Build[] = [];
try {
  const seeded = join(work, "seed.db");
  const { sampleIds } = await seedSqlite(seeded, Number(args.listings));
  for (const [name, entry] of [
    ["base", args.base],
    ["head", args.head],
  ] as const) {
    const dataDir = join(work, name);
    mkdirSync(dataDir);
    copyFileSync(seeded, join(dataDir, "marketplace.db"));
    // startBenchServer runs the entry PSM_BENCH_SERVER names, as it does for bench:http's A/Bs.
    process.env.PSM_BENCH_SERVER = resolve(entry);
    // Each build its own (else what the caller's environment says): one build's must not carry over.
    setOrUnset("PSM_BENCH_NODE_ARGS", args[`${name}-node-args`] ?? callerNodeArgs);
    setOrUnset("PSM_BENCH_RUNTIME_ENV", args[`${name}-env`] ?? callerRuntimeEnv);
    const server = await startBenchServer({
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      LISTING_SLOTS: "personal:10000000,business:10000000,admin:10000000",
    });
    const fixtures = await prepareFixtures(server.url, sampleIds);
    builds.push({
      name,
      server,
      rows: targets(fixtures),
      rps: new Map(),
      cpu: new Map(),
      lookups: new Map(),
      memory: samplePeak(server.pid),
    });
  }
  const rows = wanted.map((want) => {
    const found = builds[0]?.rows.find((row) => row.name.includes(want));
    if (!found) throw new Error(`no row matches "${want}"`);
    return found.name;
  });
  console.log(`${rounds} rounds × ${rows.length} rows × 2 builds, ${settings.duration} s each`);
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const target = build.rows.find((t) => t.name === row) as Target;
        const lookedUp = await cacheLookups(build.server.url);
        const before = cpuMs(build.server.pid);
        const m = await measure(build.server.url, target, settings);
        const cpuUs = ((cpuMs(build.server.pid) - before) * 1000) / Math.max(1, m.sent);
        const lookups = await cacheLookups(build.server.url);
        const sum = build.lookups.get(row) ?? { kept: 0, all: 0 };
        build.lookups.set(row, {
          kept: sum.kept + lookups.kept - lookedUp.kept,
          all: sum.all + lookups.all - lookedUp.all,
        });
        build.rps.set(row, [...(build.rps.get(row) ?? []), m.rps]);
        build.cpu.set(row, [...(build.cpu.get(row) ?? []), cpuUs]);
      }
    }
  }
  for (const row of rows) console.log(describe(row));
  for (const build of builds) {
    const peak = build.memory.peak();
    if (peak)
      console.log(
        `${build.name}: RSS at most ${peak.rssMiB.toFixed(0)} MiB (${peak.fileMiB.toFixed(0)} MiB files)`,
      );
  }
  console.log(
    `load average at the end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
} finally {
  for (const build of builds) build.memory.stop();
  await Promise.all(builds.map((build) => build.server.stop()));
  rmSync(work, { recursive: true, force: true });
}

/** One row's figures and what its paired ratios say. */
function describe(row: string): string {
  const [base, head] = builds as [Build, Build];
  const baseCpu = base.cpu.get(row) ?? [];
  const headCpu = head.cpu.get(row) ?? [];
  const ratios = headCpu.map((us, i) => us / (baseCpu[i] ?? Number.NaN));
  const verdict =
    ratios.length < AGREEING_ROUNDS
      ? `too few rounds to tell (${AGREEING_ROUNDS} needed)`
      : ratios.every((r) => r < 1)
        ? `head cheaper in all ${ratios.length} rounds`
        : ratios.every((r) => r > 1)
          ? `head dearer in all ${ratios.length} rounds`
          : "not told apart";
  const figures = (build: Build) => {
    const { kept, all } = build.lookups.get(row) ?? { kept: 0, all: 0 };
    const hits = all > 0 ? `, cache hits ${((100 * kept) / all).toFixed(1)} %` : "";
    return `${median(build.rps.get(row) ?? []).toFixed(0)} req/s, ${median(build.cpu.get(row) ?? []).toFixed(1)} µs${hits}`;
  };
  return [
    row,
    `  base ${figures(base)}; head ${figures(head)} (medians; µs of server CPU a request)`,
    `  head/base CPU a request: median ${median(ratios).toFixed(3)}, rounds ${ratios.map((r) => r.toFixed(2)).join(" ")}: ${verdict}`,
  ].join("\n");
}

function setOrUnset(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
