/** One benchmark round: seed `n` listings, then measure. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { createUuidV7Generator, webCryptoRandom } from "@psm/core";
import { benchSearchBounds } from "../../../bench/support/search-bounds.ts";
import { openConnection } from "../src/connection.ts";
import { openSqliteStorage } from "../src/index.ts";
import { compareInserts } from "./inserts.ts";
import { count, ms, table, throughput } from "./measure.ts";
import { measurePages, measureSearch } from "./queries.ts";
import { makeListing, prng, RARE_TERM, type Seeded, seed } from "./seed.ts";

/** Where the database files go: PSM_BENCH_DIR, or /tmp/psm-bench. */
const DIR = process.env.PSM_BENCH_DIR ?? "/tmp/psm-bench";
/**
 * PSM_BENCH_REUSE=1: start from the copy of the seeded file the last run of
 * the same count kept (`.seeded`), instead of seeding again (minutes at 1M).
 */
const REUSE = process.env.PSM_BENCH_REUSE === "1";
/** Listings written one commit each before the searches, as production does. */
const LIVE_INSERTS = 2_000;

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

/** Seeds a fresh database with `n` listings and prints every figure. */
export async function runBenchmark(n: number): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const file = `${DIR}/sqlite-${n}.db`;
  const kept = `${file}.seeded`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  const reuse = REUSE && existsSync(kept) && existsSync(`${kept}.json`);
  if (reuse) copyFileSync(kept, file);
  else {
    const migrated = openSqliteStorage({ file });
    await migrated.migrate();
    await migrated.close();
  }

  const sqlite = openConnection(file);
  const version = sqlite.prepare("SELECT sqlite_version()").pluck().get();
  console.log(`\n=== SQLite ${version}, ${count(n)} listings`);
  console.log(
    `${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(`load average at start: ${load()} (a shared machine: p95 figures carry other jobs' noise)`);
  const { nowMs, ...seeded } = reuse
    ? (JSON.parse(readFileSync(`${kept}.json`, "utf8")) as Seeded & { nowMs: number })
    : { nowMs: Date.now(), ...seed(sqlite, n, Date.now()) };
  const now = new Date(nowMs);
  const segments = () => sqlite.prepare("SELECT count(DISTINCT segid) FROM listings_fts_idx").pluck().get();
  const ftsPerRow = seeded.ftsMs / n;
  console.log(
    `${reuse ? `reused the file seeded at ${now.toISOString()}; then ` : ""}seeded (bulk import): table and b-tree indexes ${ms(seeded.msPerRow)} per listing, then the FTS index ` +
      `in one ordered pass ${ms(ftsPerRow)} per listing (${((seeded.msPerRow + ftsPerRow) / seeded.msPerRow).toFixed(2)}x ` +
      `the cost without it); file ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`,
  );

  // Fold the seeding's WAL into the file first, so no measured commit pays for it.
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  if (!reuse) {
    copyFileSync(file, kept);
    writeFileSync(`${kept}.json`, JSON.stringify({ nowMs, ...seeded }));
  }
  const storage = openSqliteStorage({ file });
  const { listings } = storage.repositories;
  const results: Record<string, unknown> = {
    n,
    load: loadavg(),
    seedMsPerRow: seeded.msPerRow,
    ftsMs: seeded.ftsMs,
  };

  // Live writes first: one FULL-synced commit each, as the API does, which also
  // leaves the FTS index with the small segments production accumulates.
  const next = prng(7);
  const ids = createUuidV7Generator(webCryptoRandom);
  const fresh = (i: number) =>
    makeListing(next, ids.newId(new Date()), seeded.userIds[1 + (i % 50)] ?? "", Date.now(), nowMs);
  const guard = { maxSlots: 1_000_000, now };
  const inserts = await throughput((i) => listings.insertWithinSlots(fresh(i), guard), LIVE_INSERTS);
  console.log(`after ${LIVE_INSERTS} live inserts the FTS index has ${segments()} segments`);

  Object.assign(results, await measureSearch(listings, sqlite, now, n >= 1_000_000 ? 5 : 10));
  const middle = seeded.sampleIds[Math.floor(seeded.sampleIds.length / 2)];
  results.pages = await measurePages(listings, now, seeded.userIds[0] ?? "", middle);
  const titles = sqlite
    .prepare<[string], string>("SELECT title FROM listings WHERE id IN (SELECT value FROM json_each(?))")
    .pluck()
    .all(JSON.stringify(seeded.sampleIds.slice(0, 5_000)));
  results.bounds = await benchSearchBounds({
    listings,
    now,
    titles,
    middleId: middle ?? "",
    words: {
      common: "consulting",
      pair: ["software", "development"],
      rare: RARE_TERM,
      many: ["consulting", "software", "development", "data", "cloud", "strategy", "marketing", "design"],
    },
  });

  const sample = seeded.sampleIds;
  const pick = () => sample[Math.floor(next() * sample.length)] ?? "";
  const byId = await throughput(() => listings.findById(pick()), 20_000);
  const views = await throughput(() => listings.incrementViews(pick()), 1_000);
  console.log("\nthroughput (sequential calls through the port)");
  table(
    ["operation", "ops/s"],
    [
      ["findById", count(byId)],
      ["incrementViews (one FULL-synced commit each)", count(views)],
      ["insertWithinSlots (one FULL-synced commit each)", count(inserts)],
    ],
  );
  Object.assign(results, { byIdPerSec: byId, viewsPerSec: views, insertsPerSec: inserts });

  await storage.close();
  results.inserts = await compareInserts(sqlite, seeded.userIds, nowMs);
  sqlite.close();
  console.log(`load average at end: ${load()}`);
  writeFileSync(`${DIR}/results-${n}.json`, `${JSON.stringify(results, null, 2)}\n`);
}
