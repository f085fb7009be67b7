import { performance } from "node:perf_hooks";

// One timing for both storage benchmarks.
export { type Timing as Latency, time as latency } from "../../../bench/support/timing.ts";

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
