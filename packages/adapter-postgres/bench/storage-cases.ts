import type { ListingSearch, Storage } from "@psm/core";
import type { Connection } from "../src/connection.js";
import { searchQuery } from "../src/repositories/listing-search.js";
import { cell, latency, ms, throughput } from "./measure.js";
import { PAGE_CATEGORY, TERMS } from "./seed.js";

const page = (extra: Partial<ListingSearch>): ListingSearch => ({ limit: 20, status: "active", ...extra });

/** The indexes (or a sequential scan) that find the page, from EXPLAIN. */
async function planOf(connection: Connection, search: ListingSearch, now: Date): Promise<string> {
  const built = searchQuery(connection.db, search, now)!.toSQL();
  const rows = await connection.sql.unsafe(`explain ${built.sql}`, built.params as never[]);
  const text = rows.map((row) => String(Object.values(row)[0])).join("\n");
  const used = [...text.matchAll(/(?:using|on) (listings_\w+)|(Seq Scan)/g)].map((m) => m[1] ?? m[2]);
  // The outer fetch by primary key is the same for every search; show how the page was found.
  const found = [...new Set(used)].filter((name) => name !== "listings_pkey");
  return found.join("+").replace(/listings_|_idx/g, "") || "pkey";
}

/** Median execution time inside PostgreSQL (EXPLAIN ANALYZE), free of client and scheduling noise. */
async function serverTime(
  connection: Connection,
  search: ListingSearch,
  now: Date,
  runs = 7,
): Promise<number> {
  const built = searchQuery(connection.db, search, now)!.toSQL();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [row] = await connection.sql.unsafe(
      `explain (analyze, format json) ${built.sql}`,
      built.params as never[],
    );
    const plan = Object.values(row ?? {})[0] as [{ "Execution Time": number }];
    times.push(plan[0]["Execution Time"]);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/** The same search the naive way: ILIKE on the title, index scans disabled. */
async function naive(connection: Connection, term: string, now: Date, runs: number) {
  return connection.sql.begin(async (tx) => {
    await tx`set local enable_indexscan = off`;
    await tx`set local enable_bitmapscan = off`;
    const pattern = `%${term.replace(/[\\%_]/g, "\\$&")}%`;
    return latency(
      () => tx`select id, title from listings where status = 'active'
        and (expires_at is null or expires_at > ${now.toISOString()}) and title ilike ${pattern}
        order by id desc limit 20`,
      runs,
      1,
    );
  });
}

/** Search beside the naive scan, page queries and reads by id. */
export async function benchQueries(storage: Storage, connection: Connection, size: number): Promise<void> {
  const { listings } = storage.repositories;
  const now = new Date();
  console.log(
    `\n${cell("search term", 26)}${cell("hits", 6)}${cell("plan", 20)}median      p95         server      naive median  ratio`,
  );
  for (const [kind, term] of Object.entries(TERMS)) {
    const search = page({ text: term });
    const hits = (await listings.search(search, now)).length;
    const plan = await planOf(connection, search, now);
    const slow = kind === "2-char rare" || kind === "absent";
    const fast = await latency(() => listings.search(search, now), slow ? 10 : 100);
    const server = await serverTime(connection, search, now, slow ? 3 : 7);
    const base = await naive(connection, term, now, size >= 1_000_000 ? 3 : 5);
    console.log(
      `${cell(`${kind} "${term}"`, 26)}${cell(String(hits), 6)}${cell(plan, 20)}${cell(ms(fast.median), 12)}` +
        `${cell(ms(fast.p95), 12)}${cell(ms(server), 12)}${cell(ms(base.median), 14)}` +
        `${(base.median / fast.median).toFixed(0)}x`,
    );
  }

  const [author] = await connection.sql<{ id: string }[]>`select id from bench_authors where n = 5`;
  const pages: [string, ListingSearch][] = [
    ["default page", page({})],
    [`category page (${PAGE_CATEGORY})`, page({ category: PAGE_CATEGORY as ListingSearch["category"] })],
    ["author page (all statuses)", page({ userId: author!.id, status: "all" })],
    ["author page (active)", page({ userId: author!.id })],
  ];
  console.log(`\n${cell("page query", 36)}${cell("plan", 20)}median      p95         server`);
  for (const [label, search] of pages) {
    const plan = await planOf(connection, search, now);
    const figures = await latency(() => listings.search(search, now), 200);
    const server = await serverTime(connection, search, now);
    console.log(
      `${cell(label, 36)}${cell(plan, 20)}${cell(ms(figures.median), 12)}${cell(ms(figures.p95), 12)}${ms(server)}`,
    );
  }

  const ids = (
    await connection.sql<{ id: string }[]>`select id from listings tablesample system (1) limit 2000`
  ).map((row) => row.id);
  const one = await latency(() => listings.findById(ids[Math.floor(Math.random() * ids.length)]!), 500);
  const rate = await throughput((i) => listings.findById(ids[i % ids.length]!), 10_000, 10);
  console.log(`\nget by id: median ${ms(one.median)}, p95 ${ms(one.p95)}; ${rate.toFixed(0)}/s (10 callers)`);
}
