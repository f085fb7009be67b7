/** Timing helpers of the storage benchmark. */

/** Median, 95th percentile and mean of a set of durations in ms. */
export interface Timing {
  median: number;
  p95: number;
  mean: number;
  runs: number;
}

function quantile(sorted: number[], q: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** Runs `step` `warmup` times untimed, then `runs` times timed. */
export async function time(step: () => unknown, runs: number, warmup = 3): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await step();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await step();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return {
    median: quantile(ms, 0.5),
    p95: quantile(ms, 0.95),
    mean: ms.reduce((sum, value) => sum + value, 0) / ms.length,
    runs,
  };
}

/** Operations per second of `n` sequential calls of `step(i)`. */
export async function throughput(step: (i: number) => unknown, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await step(i);
  return n / ((performance.now() - start) / 1000);
}

/** A duration in ms with a unit that keeps three significant digits. */
export function ms(value: number): string {
  if (value < 1) return `${(value * 1000).toPrecision(3)} µs`;
  if (value < 1000) return `${value.toPrecision(3)} ms`;
  return `${(value / 1000).toPrecision(3)} s`;
}

/** A count with thousands separators. */
export function count(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** Prints rows as an aligned text table. */
export function table(header: string[], rows: string[][]): void {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ");
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const row of rows) console.log(line(row));
}
