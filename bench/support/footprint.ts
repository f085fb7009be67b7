/**
 * Issue 30 item 4, measured from outside: the server's time to its first
 * answer, its memory idle and under the benchmark's load, its threads, and
 * its document processes (children), read from Linux's /proc.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** The server process and its children (the document processes) at one moment. */
export interface TreeMemory {
  /** The server process alone. */
  rssMiB: number;
  /**
   * Of the server's RSS, pages of mapped files (RssFile: its code and libraries, and SQLite's
   * memory-mapped database): the kernel's page cache seen through the process, which it can drop.
   */
  fileMiB: number;
  /** The server and its children, each counted whole (file pages they share counted in each). */
  treeRssMiB: number;
  /** The server and its children, shared pages divided among the processes that map them. */
  treePssMiB: number;
  threads: number;
  /** Children of the server (document processes) alive. */
  children: number;
}

const KIB_PER_MIB = 1024;

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // gone, or not Linux
  }
}

function field(text: string | undefined, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(text ?? "");
  return match?.[1] ? Number(match[1]) : 0;
}

function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) =>
    (read(`/proc/${pid}/task/${task}/children`) ?? "").split(/\s+/).filter(Boolean).map(Number),
  );
}

/** The figures of `pid` and its children now; undefined when it is gone or /proc is absent. */
export function treeMemory(pid: number): TreeMemory | undefined {
  const status = read(`/proc/${pid}/status`);
  if (status === undefined) return undefined;
  const kids = childrenOf(pid);
  let rss = field(status, "VmRSS");
  let pss = field(read(`/proc/${pid}/smaps_rollup`), "Pss");
  const own = rss;
  for (const kid of kids) {
    rss += field(read(`/proc/${kid}/status`), "VmRSS");
    pss += field(read(`/proc/${kid}/smaps_rollup`), "Pss");
  }
  return {
    rssMiB: own / KIB_PER_MIB,
    fileMiB: field(status, "RssFile") / KIB_PER_MIB,
    treeRssMiB: rss / KIB_PER_MIB,
    treePssMiB: pss / KIB_PER_MIB,
    threads: field(status, "Threads"),
    children: kids.length,
  };
}

/** The highest figures seen while sampling. */
export interface PeakSampler {
  peak(): TreeMemory | undefined;
  stop(): void;
}

/** Samples `pid` and its children every `everyMs` until stopped, keeping each figure's maximum. */
export function samplePeak(pid: number, everyMs = 250): PeakSampler {
  let peak: TreeMemory | undefined;
  const take = () => {
    const now = treeMemory(pid);
    if (now === undefined) return;
    peak =
      peak === undefined
        ? now
        : {
            rssMiB: Math.max(peak.rssMiB, now.rssMiB),
            fileMiB: Math.max(peak.fileMiB, now.fileMiB),
            treeRssMiB: Math.max(peak.treeRssMiB, now.treeRssMiB),
            treePssMiB: Math.max(peak.treePssMiB, now.treePssMiB),
            threads: Math.max(peak.threads, now.threads),
            children: Math.max(peak.children, now.children),
          };
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    peak: () => {
      take();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}

/** CPU time `pid` has spent (user and system, every thread), in ms; 0 where /proc is absent. */
export function cpuMs(pid: number): number {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return 0;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time every PostgreSQL process of the machine has spent, in ms (the database's half of a
 * request's cost, on the same cores): backends, the writer, autovacuum alike.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = read(`/proc/${entry}/comm`);
    if (comm?.trim() === "postgres") total += cpuMs(Number(entry));
  }
  return total;
}

/**
 * Milliseconds from `spawnedAt` (performance.now() before the spawn) to the first answer of
 * `path`, and the CPU time the server had spent by then: the wall time grows with whatever else
 * the machine runs, the CPU time much less.
 */
export async function firstAnswer(
  base: string,
  pid: number,
  spawnedAt: number,
  path = "/api/listings",
): Promise<{ ms: number; cpuMs: number }> {
  const answer = await fetch(`${base}${path}`);
  await answer.arrayBuffer();
  if (!answer.ok) throw new Error(`first request GET ${path}: ${answer.status}`);
  return { ms: performance.now() - spawnedAt, cpuMs: cpuMs(pid) };
}

/** The figures of `pid` after `quietMs` without requests. */
export async function idleMemory(pid: number, quietMs: number): Promise<TreeMemory | undefined> {
  await sleep(quietMs);
  return treeMemory(pid);
}

/** One backend's footprint, as the run reports it. */
export interface Footprint {
  backend: "sqlite" | "postgres";
  /** From the spawn of `node bin/psm-server.js` (compile cache warm) to the end of the first answer (GET /api/listings). */
  firstAnswerMs: number;
  /** The server's CPU time by then (start and first answer). */
  firstAnswerCpuMs: number;
  /** A few seconds after the first answer, before any other request. */
  idle?: TreeMemory;
  /** The maximum over every endpoint's rounds. */
  load?: TreeMemory;
  /** The maximum while documents were parsed (see footprint-documents.ts). */
  documents?: TreeMemory;
  /** A minute after the last request: the document processes ended, the server collected. */
  afterDocuments?: TreeMemory;
}

const mib = (n: number | undefined) => (n === undefined ? "n/a" : `${n.toFixed(0)} MiB`);

/** One line per backend for the run log and the notes. */
export function describeFootprint(f: Footprint): string {
  const name = f.backend === "sqlite" ? "SQLite" : "PostgreSQL";
  const parts = [
    `first answer ${f.firstAnswerMs.toFixed(0)} ms after the spawn (${f.firstAnswerCpuMs.toFixed(0)} ms of server CPU)`,
    `idle RSS ${mib(f.idle?.rssMiB)} (${f.idle?.threads ?? "?"} threads; ${mib(f.idle?.fileMiB)} of it mapped files)`,
    `RSS under load at most ${mib(f.load?.rssMiB)} (mapped files at most ${mib(f.load?.fileMiB)})`,
  ];
  if (f.documents)
    parts.push(
      `parsing documents at most ${mib(f.documents.treeRssMiB)} RSS / ${mib(f.documents.treePssMiB)} PSS with ` +
        `${f.documents.children} document processes`,
    );
  if (f.afterDocuments)
    parts.push(
      `a minute after the last request ${f.afterDocuments.children} document processes left, RSS ${mib(f.afterDocuments.treeRssMiB)} ` +
        `(the server's mapped files ${mib(f.afterDocuments.fileMiB)})`,
    );
  return `Footprint, ${name}: ${parts.join("; ")}.`;
}

/** The bounds of issue 30 item 4. */
export const FOOTPRINT_BOUNDS = { idleMiB: 120, loadMiB: 300, firstAnswerMs: 1000 };

/** The targets of item 4 on one backend: met or missed, in report.ts's shape. */
export function footprintTargets(
  f: Footprint,
): { name: string; wanted: string; measured: string; met: boolean }[] {
  const name = f.backend === "sqlite" ? "SQLite" : "PostgreSQL";
  const b = FOOTPRINT_BOUNDS;
  const rows = [
    {
      name: `${name} first answer after start`,
      wanted: `≤ ${b.firstAnswerMs} ms`,
      measured: `${f.firstAnswerMs.toFixed(0)} ms (${f.firstAnswerCpuMs.toFixed(0)} ms of CPU; the wall time includes waiting for the cores)`,
      met: f.firstAnswerMs <= b.firstAnswerMs,
    },
  ];
  const bound = (label: string, value: number | undefined, max: number) =>
    value === undefined
      ? []
      : [{ name: `${name} ${label}`, wanted: `≤ ${max} MiB`, measured: mib(value), met: value <= max }];
  return [
    ...rows,
    ...bound("RSS idle", f.idle?.rssMiB, b.idleMiB),
    ...bound("RSS under load", f.load?.rssMiB, b.loadMiB),
    ...bound("RSS parsing documents (server + document processes)", f.documents?.treeRssMiB, b.loadMiB),
    ...bound("RSS idle again, a minute after the last request", f.afterDocuments?.treeRssMiB, b.idleMiB),
  ];
}
