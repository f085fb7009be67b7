/**
 * SQLite storage benchmark (not a test): seeds 100k and 1M listings and prints
 * search, page, point-read and write figures beside a naive LIKE scan.
 * Run: node --conditions=psm-source packages/adapter-sqlite/bench/storage.bench.ts [count]
 * Database files go under PSM_BENCH_DIR, or /tmp/psm-bench (removed before each run); a copy of
 * each seeded file is kept there (`.seeded`), which PSM_BENCH_REUSE=1 starts from instead of seeding.
 */
import "../../../bench/support/ts-resolve.ts";

// Imported after the hook is in place: static imports would resolve before it.
const { runBenchmark } = await import("./run.ts");

const arg = process.argv[2];
const counts = arg ? [Number(arg)] : [100_000, 1_000_000];
if (counts.some((count) => !Number.isInteger(count) || count < 1000)) {
  throw new Error("usage: storage.bench.ts [count >= 1000]");
}
for (const count of counts) await runBenchmark(count);
