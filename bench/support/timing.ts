/** Timing and printing helpers shared by the storage benchmarks of both adapters. */

/** Median, 95th percentile, maximum and mean of a set of durations in ms. */
export interface Timing {
  median: number;
  p95: number;
  max: number;
  mean: number;
  runs: number;
}

function quantile(sorted: number[], q: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** The median of `values` (the lower of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Runs `step` `warmup` times untimed, then `runs` times timed, one after another. */
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
    max: ms.at(-1) ?? Number.NaN,
    mean: ms.reduce((sum, value) => sum + value, 0) / ms.length,
    runs,
  };
}

/** A duration in ms with a unit that keeps three significant digits. */
export function ms(value: number): string {
  if (value < 1) return `${(value * 1000).toPrecision(3)} µs`;
  if (value < 1000) return `${value.toPrecision(3)} ms`;
  return `${(value / 1000).toPrecision(3)} s`;
}

/** Prints rows as an aligned text table. */
export function table(header: string[], rows: string[][]): void {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ");
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const row of rows) console.log(line(row));
}
