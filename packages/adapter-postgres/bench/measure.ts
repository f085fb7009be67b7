import { performance } from "node:perf_hooks";

/** Latency figures of repeated runs, in milliseconds. */
export interface Latency {
  median: number;
  p95: number;
  runs: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** Runs `work` `warmup` times unmeasured, then `runs` times one after another. */
export async function latency(work: () => Promise<unknown>, runs: number, warmup = 3): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95), runs };
}

/** Operations per second with `concurrency` callers sharing `total` calls of `work(i)`. */
export async function throughput(
  work: (i: number) => Promise<unknown>,
  total: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < total) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return total / ((performance.now() - start) / 1000);
}

/** `1.234 ms`, `0.087 ms`, `1234 ms`. */
export function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(3)} ms`;
}

/** Right-pads a table cell. */
export function cell(text: string, width: number): string {
  return text.padEnd(width);
}
