import { performance } from "node:perf_hooks";
import type { ListingSearch, Storage } from "@psm/core";
import type { Connection } from "../src/connection.js";
import { searchQuery } from "../src/repositories/listing-search.js";
import { cell, latency, ms, throughput } from "./measure.js";
import { PAGE_CATEGORY, TERMS } from "./seed.js";

const page = (extra: Partial<ListingSearch>): ListingSearch => ({ limit: 20, status: "active", ...extra });

/** A node of an EXPLAIN (ANALYZE, FORMAT JSON) plan. */
interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/** The indexes (or sequential scans) that ran, however deep in the plan. */
function scansRun(node: PlanNode, into: string[] = []): string[] {
  if ((node["Actual Loops"] ?? 0) > 0) {
    if (node["Index Name"] !== undefined) into.push(node["Index Name"]);
    else if (node["Node Type"] === "Seq Scan") into.push("Seq Scan");
  }
  for (const child of node.Plans ?? []) scansRun(child, into);
  return into;
}

/** The indexes (or a sequential scan) that found the page, from EXPLAIN ANALYZE: only those that ran. */
async function planOf(connection: Connection, search: ListingSearch, now: Date): Promise<string> {
  const built = searchQuery(connection.db, search, now)!.toSQL();
  const [row] = await connection.sql.unsafe(
    `explain (analyze, timing off, format json) ${built.sql}`,
    built.params as never[],
  );
  const [plan] = Object.values(row ?? {})[0] as [{ Plan: PlanNode }];
  // The outer fetch by primary key is the same for every search; show how the page was found.
  const found = [...new Set(scansRun(plan.Plan))].filter((name) => name !== "listings_pkey");
  return found.join("+").replace(/listings_|_idx/g, "") || "pkey";
}

/**
 * Median execution time inside PostgreSQL (EXPLAIN ANALYZE), free of client
 * and scheduling noise. With `timing`, each plan node reads the clock for
 * every row it passes, which adds more to plans of more nodes; without, only
 * the total is measured.
 */
async function serverTime(
  connection: Connection,
  search: ListingSearch,
  now: Date,
  runs = 7,
  timing = true,
): Promise<number> {
  const built = searchQuery(connection.db, search, now)!.toSQL();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [row] = await connection.sql.unsafe(
      `explain (analyze, timing ${timing ? "on" : "off"}, format json) ${built.sql}`,
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
    `\n${cell("search term", 30)}${cell("hits", 6)}${cell("plan", 32)}median      p95         server      ` +
      "no timing   naive median  ratio",
  );
  for (const [kind, term] of Object.entries(TERMS)) {
    const search = page({ text: term });
    const first = performance.now();
    const answer = await listings.search(search, now);
    // "…": the search stopped short, with a cursor to go on (ListingSearchResult).
    const hits = `${answer.length}${answer.resumeBefore === undefined ? "" : "…"}`;
    // Fewer runs for a search slower than a frame, so a slow plan does not stall the bench.
    const slow = performance.now() - first > 20;
    const plan = await planOf(connection, search, now);
    const fast = await latency(() => listings.search(search, now), slow ? 10 : 100);
    const server = await serverTime(connection, search, now, slow ? 3 : 7);
    const untimed = await serverTime(connection, search, now, slow ? 3 : 7, false);
    const base = await naive(connection, term, now, size >= 1_000_000 ? 3 : 5);
    console.log(
      `${cell(`${kind} "${term}"`, 30)}${cell(hits, 6)}${cell(plan, 32)}${cell(ms(fast.median), 12)}` +
        `${cell(ms(fast.p95), 12)}${cell(ms(server), 12)}${cell(ms(untimed), 12)}${cell(ms(base.median), 14)}` +
        `${(base.median / fast.median).toFixed(0)}x`,
    );
  }

  await benchShortPages(storage, now);

  // Terms too short for trigrams on a category page (a walk that reads each title from the table).
  const category = PAGE_CATEGORY as ListingSearch["category"];
  console.log(
    `\n${cell("category page search", 36)}${cell("plan", 32)}median      p95         server      no timing`,
  );
  for (const term of [
    TERMS["2-char rare"],
    TERMS["1-char absent"],
    TERMS["no-trigram absent"],
    TERMS["2-char common"],
  ]) {
    const search = page({ category, text: term });
    const first = performance.now();
    await listings.search(search, now);
    const slow = performance.now() - first > 20;
    const plan = await planOf(connection, search, now);
    const figures = await latency(() => listings.search(search, now), slow ? 10 : 100);
    const server = await serverTime(connection, search, now, slow ? 3 : 7);
    const untimed = await serverTime(connection, search, now, slow ? 3 : 7, false);
    console.log(
      `${cell(`"${term}"`, 36)}${cell(plan, 32)}${cell(ms(figures.median), 12)}${cell(ms(figures.p95), 12)}` +
        `${cell(ms(server), 12)}${ms(untimed)}`,
    );
  }

  const [author] = await connection.sql<{ id: string }[]>`select id from bench_authors where n = 5`;
  const depth = Math.floor(size * 0.3);
  const [deep] = await connection.sql<{ id: string }[]>`select id from listings where status = 'active'
    order by id desc offset ${depth} limit 1`;
  const pages: [string, ListingSearch][] = [
    ["default page", page({})],
    [`default page, ${depth.toLocaleString("en")} deep`, page({ before: deep!.id })],
    [`category page (${PAGE_CATEGORY})`, page({ category: PAGE_CATEGORY as ListingSearch["category"] })],
    ["author page (all statuses)", page({ userId: author!.id, status: "all" })],
    ["author page (active)", page({ userId: author!.id })],
  ];
  console.log(`\n${cell("page query", 36)}${cell("plan", 32)}median      p95         server`);
  for (const [label, search] of pages) {
    const plan = await planOf(connection, search, now);
    const figures = await latency(() => listings.search(search, now), 200);
    const server = await serverTime(connection, search, now);
    console.log(
      `${cell(label, 36)}${cell(plan, 32)}${cell(ms(figures.median), 12)}${cell(ms(figures.p95), 12)}${ms(server)}`,
    );
  }

  const ids = (
    await connection.sql<{ id: string }[]>`select id from listings tablesample system (1) limit 2000`
  ).map((row) => row.id);
  const one = await latency(() => listings.findById(ids[Math.floor(Math.random() * ids.length)]!), 500);
  const rate = await throughput((i) => listings.findById(ids[i % ids.length]!), 10_000, 10);
  console.log(`\nget by id: median ${ms(one.median)}, p95 ${ms(one.p95)}; ${rate.toFixed(0)}/s (10 callers)`);
}

/**
 * A term common only among older listings, paged the way a caller does: the
 * short pages before its first match, and what each cost.
 */
async function benchShortPages(storage: Storage, now: Date): Promise<void> {
  const term = TERMS["2-char aged"];
  const times: number[] = [];
  let before: string | undefined;
  let found = 0;
  while (found === 0 && times.length < 200) {
    const start = performance.now();
    const answer = await storage.repositories.listings.search(page({ text: term, limit: 21, before }), now);
    times.push(performance.now() - start);
    found = answer.length;
    if (answer.resumeBefore === undefined) break;
    before = answer.resumeBefore;
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `\n"${term}" paged from the newest: ${times.length - 1} short pages before the first match ` +
      `(${found} found on page ${times.length}); per page median ${ms(sorted[Math.floor(times.length / 2)]!)}, ` +
      `max ${ms(sorted.at(-1)!)}`,
  );
}
