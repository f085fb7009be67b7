/** Insert cost with the FTS search index against the same inserts without it. */
import { createUuidV7Generator, webCryptoRandom } from "@psm/core";
import type { Database } from "better-sqlite3";
import { createListingWriter } from "../src/repositories/listing-order.ts";
import { ms, table } from "./measure.ts";
import { makeListing, prng } from "./seed.ts";

const BATCH = 20_000;
const SINGLES = 300;

/**
 * Inserts single rows in one transaction each and a batch in one transaction,
 * first with the FTS triggers, then with them dropped; the rows written
 * without the index are deleted again and the triggers restored.
 */
export async function compareInserts(sqlite: Database, userIds: string[], now: number) {
  const writer = createListingWriter(sqlite);
  const next = prng(99);
  const ids = createUuidV7Generator(webCryptoRandom);
  const make = (i: number) =>
    makeListing(next, ids.newId(new Date()), userIds[i % userIds.length] ?? "", Date.now(), now);
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  // Single commits first: a big batch leaves FTS5 merge work that the next
  // commits would otherwise pay for.
  const measure = () => {
    const singles = Array.from({ length: SINGLES }, (_, i) => make(i));
    let cpu = process.cpuUsage();
    let start = performance.now();
    for (const listing of singles) sqlite.transaction(() => writer.insert(listing)).immediate();
    const single = (performance.now() - start) / SINGLES;
    const singleCpu = cpuMs(cpu) / SINGLES;
    const rows = Array.from({ length: BATCH }, (_, i) => make(i));
    cpu = process.cpuUsage();
    start = performance.now();
    sqlite.transaction(() => {
      for (const listing of rows) writer.insert(listing);
    })();
    const batch = (performance.now() - start) / BATCH;
    const batchCpu = cpuMs(cpu) / BATCH;
    return { batch, batchCpu, single, singleCpu, ids: [...singles, ...rows].map((listing) => listing.id) };
  };

  const withIndex = measure();
  const triggers = sqlite
    .prepare<[], string>(
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'listings_fts_%'",
    )
    .pluck()
    .all();
  sqlite.exec(
    "DROP TRIGGER listings_fts_after_insert; DROP TRIGGER listings_fts_after_update; DROP TRIGGER listings_fts_after_delete;",
  );
  const without = measure();
  const remove = sqlite.prepare<[string]>("DELETE FROM listings WHERE id = ?");
  sqlite.transaction(() => {
    for (const id of without.ids) remove.run(id);
  })();
  for (const sql of triggers) sqlite.exec(sql);

  console.log("\ninsert cost per listing, with the FTS trigram index vs without it (wall and CPU time)");
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  table(
    ["mode", "with index", "without", "ratio"],
    [
      [
        `bulk, ${BATCH} in one transaction: wall`,
        ms(withIndex.batch),
        ms(without.batch),
        ratio(withIndex.batch, without.batch),
      ],
      [
        `bulk, ${BATCH} in one transaction: CPU`,
        ms(withIndex.batchCpu),
        ms(without.batchCpu),
        ratio(withIndex.batchCpu, without.batchCpu),
      ],
      [
        `single, one FULL-synced commit each: wall`,
        ms(withIndex.single),
        ms(without.single),
        ratio(withIndex.single, without.single),
      ],
      [
        `single, one FULL-synced commit each: CPU`,
        ms(withIndex.singleCpu),
        ms(without.singleCpu),
        ratio(withIndex.singleCpu, without.singleCpu),
      ],
    ],
  );
  console.log(
    "(In a multi-row transaction FTS5 flushes its pending terms per row: at each statement savepoint, which an\n" +
      " INSERT with a trigger opens. The API writes one listing per commit; a bulk import should fill the index\n" +
      " in one ordered pass instead, as the seeding above does.)",
  );
  const { ids: _with, ...withFigures } = withIndex;
  const { ids: _without, ...withoutFigures } = without;
  return { withIndex: withFigures, without: withoutFigures };
}
