/** Timing helpers of the storage benchmark. */

export { ms, type Timing, table, time } from "../../../bench/support/timing.ts";

/** Operations per second of `n` sequential calls of `step(i)`. */
export async function throughput(step: (i: number) => unknown, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await step(i);
  return n / ((performance.now() - start) / 1000);
}

/** A count with thousands separators. */
export function count(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
