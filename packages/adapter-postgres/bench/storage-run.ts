import { cpus, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { createTestDatabase } from "@psm/adapter-postgres/testing";
import { type Connection, connect } from "../src/connection.js";
import { openPostgresStorage } from "../src/index.js";
import { seedAuthors, seedListings } from "./seed.js";
import { benchBounds } from "./storage-bounds.js";
import { benchQueries } from "./storage-cases.js";
import { benchWrites } from "./storage-writes.js";

const LISTINGS_PER_AUTHOR = 50;

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.log(`  ${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

/** The GIN indexes on text, which a bulk load is faster without: dropped and built again after. */
const TITLE_INDEXES = [
  "listings_title_trgm_idx",
  "listings_title_grams_idx",
  "listings_search_vector_idx",
  "listings_title_vector_idx",
];

/** CREATE INDEX for each title index the migrations made (and its column's statistics target). */
async function titleIndexDefinitions(sql: Connection["sql"]): Promise<string[]> {
  const rows = await sql<{ name: string; def: string; target: number | null }[]>`
    select c.relname as name, pg_get_indexdef(c.oid) as def,
      (select attstattarget from pg_attribute where attrelid = c.oid and attnum = 1) as target
    from pg_class c where c.relname in ${sql(TITLE_INDEXES)} order by c.relname desc`;
  return rows.flatMap((row) =>
    row.target === null || row.target < 0
      ? [row.def]
      : [row.def, `alter index ${row.name} alter column 1 set statistics ${row.target}`],
  );
}

/** Seeds each size in turn in a fresh database, measures, prints, and drops the database. */
export async function runStorageBench(adminUrl: string, sizes: number[]): Promise<void> {
  const database = await createTestDatabase(adminUrl, "psm_bench");
  const storage = openPostgresStorage({ url: database.url, poolMax: 10 });
  const seeding = connect(database.url, 1);
  try {
    await storage.migrate();
    const [version] = await seeding.sql<{ v: string }[]>`select current_setting('server_version') as v`;
    const cpu = cpus();
    console.log(
      `PostgreSQL ${version?.v}; Node ${process.version}; ${cpu.length} x ${cpu[0]?.model ?? "cpu"}; ` +
        `${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM; database ${database.name}`,
    );
    await seeding.sql`set maintenance_work_mem = '512MB'`;
    await seeding.sql`set synchronous_commit = off`;
    let seeded = 0;
    const titleIndexes = await titleIndexDefinitions(seeding.sql);
    for (const size of [...sizes].sort((a, b) => a - b)) {
      console.log(`\n== ${size.toLocaleString("en")} listings ==`);
      // Bulk load without the GIN indexes on titles, then build them once: far
      // faster than maintaining them row by row, and the same indexes in the end.
      for (const name of TITLE_INDEXES) await seeding.sql`drop index if exists ${seeding.sql(name)}`;
      await timed("seed authors", () => seedAuthors(seeding.sql, Math.ceil(size / LISTINGS_PER_AUTHOR)));
      await timed("seed listings", () =>
        seedListings(seeding.sql, seeded + 1, size, Math.ceil(size / LISTINGS_PER_AUTHOR)),
      );
      seeded = size;
      for (const statement of titleIndexes) {
        await timed(statement.replace(/ USING .*/s, "").toLowerCase(), () => seeding.sql.unsafe(statement));
      }
      await timed("vacuum analyze", () => seeding.sql`vacuum analyze`);
      await benchQueries(storage, seeding, size);
      await benchBounds(storage, seeding, size);
      await benchWrites(storage, seeding, size);
    }
  } finally {
    await storage.close();
    await seeding.sql.end({ timeout: 5 });
    await database.drop();
    console.log(`\ndropped ${database.name}`);
  }
}
