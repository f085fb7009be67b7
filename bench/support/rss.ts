/** Samples a process's resident memory (VmRSS in /proc/<pid>/status) once a second. */
import { readFileSync } from "node:fs";

/** A running sampler. */
export interface RssSampler {
  /** [seconds since start, MiB] pairs so far. */
  samples(): [number, number][];
  stop(): void;
}

function rssMiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // gone, or not Linux
  }
}

/** Starts sampling `pid` now. */
export function sampleRss(pid: number, everyMs = 1_000): RssSampler {
  const began = Date.now();
  const samples: [number, number][] = [];
  const take = () => {
    const mib = rssMiB(pid);
    if (mib !== undefined) samples.push([Math.round((Date.now() - began) / 1000), mib]);
  };
  take();
  const timer = setInterval(take, everyMs);
  return { samples: () => samples, stop: () => clearInterval(timer) };
}

/** One line per ~tenth of the run and the min/max/last, for the soak summary. */
export function describeRss(samples: [number, number][]): string {
  if (samples.length === 0) return "RSS: no samples (not Linux?)";
  const step = Math.max(1, Math.floor(samples.length / 10));
  const points = samples.filter((_, i) => i % step === 0 || i === samples.length - 1);
  const values = samples.map(([, mib]) => mib);
  return [
    `RSS (MiB) over time: ${points.map(([t, mib]) => `${t}s ${mib.toFixed(0)}`).join(", ")}`,
    `RSS min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}, last ${values.at(-1)?.toFixed(0)} MiB`,
  ].join("\n");
}
