// Storage benchmark for PostgreSQL (not a test). From the repository root:
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
//     node --conditions=psm-source packages/adapter-postgres/bench/storage.bench.ts [count]
// Without `count` it measures at 100k and then 1M listings. It works in a fresh
// database of its own and drops it at the end.
import "../../../bench/support/ts-resolve.ts";

// Imported only now, so that the hook above resolves the whole graph.
const { runStorageBench } = await import("./storage-run.js");

const arg = process.argv[2];
const sizes = arg === undefined ? [100_000, 1_000_000] : [Number.parseInt(arg, 10)];
if (sizes.some((n) => !Number.isInteger(n) || n < 1000)) {
  console.error("usage: storage.bench.ts [count >= 1000]");
  process.exit(2);
}
const adminUrl = process.env.TEST_DATABASE_URL;
if (adminUrl === undefined || adminUrl === "") {
  console.error(
    "the storage benchmark needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)",
  );
  process.exit(2);
}
await runStorageBench(adminUrl, sizes);
