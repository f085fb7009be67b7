import { CATEGORY_VALUES, type ListingSearch } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import type postgres from "postgres";
import { beforeAll, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { createRepositories } from "./repositories/index.js";
import { searchQuery } from "./repositories/listing-search.js";
import { probeOf, WALK_INDEX_ONLY, WALK_WITH_HEAP } from "./repositories/listing-search-shape.js";
import { OLDER_CAP } from "./repositories/listing-search-short.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
// More active rows than a search without a trigram walks, so it reaches the grams index.
const ROWS = 30_000;
const AUTHORS = 200;
/** Titles older than every other row, whose terms only the grams index can reach in time. */
const ANCIENT = ["Ancient zq c++ tooling", "Ancient zq c++ audit", "Ancient zq c++ review"];

/** Every node type and index name in an EXPLAIN (FORMAT JSON) plan. */
function planParts(plan: unknown, into: string[] = []): string[] {
  if (Array.isArray(plan)) for (const item of plan) planParts(item, into);
  else if (typeof plan === "object" && plan !== null) {
    for (const [key, value] of Object.entries(plan)) {
      if ((key === "Node Type" || key === "Index Name") && typeof value === "string") into.push(value);
      else planParts(value, into);
    }
  }
  return into;
}

/** The node types feeding each Limit: a Sort there means the page was not read in index order. */
function limitInputs(plan: unknown, into: string[] = []): string[] {
  if (Array.isArray(plan)) for (const item of plan) limitInputs(item, into);
  else if (typeof plan === "object" && plan !== null) {
    const node = plan as { "Node Type"?: unknown; Plans?: { "Node Type"?: unknown }[] };
    if (node["Node Type"] === "Limit") {
      for (const child of node.Plans ?? []) into.push(String(child["Node Type"]));
    }
    for (const value of Object.values(plan)) limitInputs(value, into);
  }
  return into;
}

/** A node of an EXPLAIN (ANALYZE, FORMAT JSON) plan. */
interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Loops"?: number;
  "Actual Rows"?: number;
  Plans?: PlanNode[];
}

/** Every node of an analyzed plan that ran, however deep (CTEs and InitPlans included). */
function ranNodes(node: PlanNode, into: PlanNode[] = []): PlanNode[] {
  if ((node["Actual Loops"] ?? 0) > 0) into.push(node);
  for (const child of node.Plans ?? []) ranNodes(child, into);
  return into;
}

/** Every node of an EXPLAIN (FORMAT JSON) plan that scans an index. */
function scansIn(plan: unknown, into: { "Index Name": string; "Index Cond"?: string }[] = []) {
  if (Array.isArray(plan)) for (const item of plan) scansIn(item, into);
  else if (typeof plan === "object" && plan !== null) {
    const node = plan as { "Index Name"?: unknown; "Index Cond"?: unknown };
    if (typeof node["Index Name"] === "string") {
      into.push({
        "Index Name": node["Index Name"],
        ...(typeof node["Index Cond"] === "string" ? { "Index Cond": node["Index Cond"] } : {}),
      });
    }
    for (const value of Object.values(plan)) scansIn(value, into);
  }
  return into;
}

/** Thrown to roll a transaction back on purpose. */
class Undo extends Error {}

/** A value as an SQL literal, for EXECUTE of a statement prepared in SQL. */
function literal(value: unknown): string {
  if (typeof value === "number") return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

describePostgres("postgres query plans", (ctx) => {
  const query = (extra: Partial<ListingSearch>): ListingSearch => ({ limit: 20, status: "active", ...extra });
  let authorId = "";

  beforeAll(async () => {
    const { sql } = ctx.connection();
    const authors = Array.from({ length: AUTHORS }, () => buildUser());
    authorId = authors[7]!.id;
    await ctx.storage().repositories.users.insert(authors[0]!);
    await sql`insert into users ${sql(
      authors.slice(1).map((u) => ({
        id: u.id,
        email: u.email,
        display_name: u.displayName,
        account_type: u.accountType,
        created_at: u.createdAt.toISOString(), // Drizzle makes this pool pass dates through as text
      })),
    )}`;
    // Ordinary titles sharing common words, each with a random hex tail; ids
    // shaped like UUIDv7 (millisecond prefix, then random), in insertion order.
    await sql`
      insert into listings (id, user_id, title, title_folded, description, category, condition, images,
        status, created_at)
      select (lpad(to_hex(1700000000000 + i), 12, '0') || '7' || substr(md5(i::text), 1, 3) || '8'
          || substr(md5(i::text), 4, 15))::uuid,
        (${sql.array(authors.map((u) => u.id))}::uuid[])[1 + i % ${AUTHORS}], t, lower(t), 'd',
        (${sql.array([...CATEGORY_VALUES])}::text[])[1 + i % 10], 'new', '[]',
        case when i % 10 = 0 then 'paused' else 'active' end, now()
      from generate_series(1, ${ROWS}) as i,
        lateral (select 'Consulting service ' || (i % 97) || ' offer ' || md5(i::text) as t) as title`;
    const { listings } = createRepositories(ctx.connection().db);
    await listings.insertWithinSlots(buildListing({ userId: authorId, title: "Quokka migration audit" }), {
      maxSlots: 1000,
      now: NOW,
    });
    for (const [i, title] of ANCIENT.entries()) {
      await listings.insertWithinSlots(
        buildListing({
          id: `01800000-0000-7000-8000-00000000000${i}`,
          userId: authorId,
          title,
          category: "legal-consulting",
        }),
        { maxSlots: 1000, now: NOW },
      );
    }
    // VACUUM as well: it moves the GIN index's pending list into the index and
    // records the index statistics the planner costs trigram scans with.
    await sql`vacuum analyze listings`;
  });

  async function explain(search: ListingSearch): Promise<{ parts: string[]; inputs: string[] }> {
    const { db, sql } = ctx.connection();
    const built = searchQuery(db, search, NOW)!.toSQL();
    const [row] = await sql.unsafe(`explain (format json) ${built.sql}`, built.params as never[]);
    return { parts: planParts(row), inputs: limitInputs(row) };
  }

  it("serves the default page from the active listings' index, index only, in index order", async () => {
    const { parts, inputs } = await explain(query({}));
    expect(parts).toContain("listings_active_id_idx");
    // The status range is that index's predicate, so the walk compares no status at its entries.
    const { db, sql } = ctx.connection();
    for (const search of [query({}), query({ text: "consulting service" }), query({ text: "co" })]) {
      const built = searchQuery(db, search, NOW)!.toSQL();
      const [row] = await sql.unsafe(`explain (format json) ${built.sql}`, built.params as never[]);
      const walks = scansIn(row).filter((node) => node["Index Name"] === "listings_active_id_idx");
      expect(walks.length).toBeGreaterThan(0);
      for (const walk of walks) expect(walk["Index Cond"] ?? "").not.toContain("status");
    }
    expect(parts).toContain("Index Only Scan");
    expect(parts).not.toContain("Seq Scan");
    expect(inputs).not.toContain("Sort");
  });

  it("starts a page far down the active or paused listings at its cursor, not at the newest entry", async () => {
    const { db, sql } = ctx.connection();
    for (const status of ["active", "paused"] as const) {
      const [deep] = await sql<{ id: string }[]>`select id from listings where status = ${status}
        order by id desc offset ${status === "active" ? 25_000 : 2_500} limit 1`;
      const built = searchQuery(db, query({ status, before: deep!.id }), NOW)!.toSQL();
      const [row] = await sql.unsafe(
        `explain (analyze, buffers, format json) ${built.sql}`,
        built.params as never[],
      );
      const [plan] = Object.values(row ?? {})[0] as [{ Plan: PlanNode }];
      const [scan] = ranNodes(plan.Plan).filter(
        (node) => node["Index Name"] === `listings_${status}_id_idx`,
      ) as (PlanNode & {
        "Shared Hit Blocks": number;
        "Shared Read Blocks": number;
      })[];
      // Reading from the newest entry to the cursor took ~250 blocks here (25,000 entries).
      expect(scan!["Shared Hit Blocks"] + scan!["Shared Read Blocks"]).toBeLessThan(10);
    }
  });

  it("serves a category page from (category, status, id)", async () => {
    const { parts, inputs } = await explain(query({ category: "legal-consulting" }));
    expect(parts).toContain("listings_category_status_id_idx");
    expect(parts).not.toContain("Seq Scan");
    expect(inputs).not.toContain("Sort");
  });

  it("serves an author page from (user_id, id)", async () => {
    expect((await explain(query({ userId: authorId, status: "all" }))).parts).toContain(
      "listings_user_id_idx",
    );
    const active = await explain(query({ userId: authorId }));
    expect(active.parts).toContain("listings_user_id_idx");
    expect(active.parts).toContain("Index Only Scan");
  });

  it("answers a selective term from the trigram index", async () => {
    const { parts } = await explain(query({ text: "QUOKKA" }));
    expect(parts).toContain("listings_title_trgm_idx");
    expect(parts).not.toContain("Seq Scan");
  });

  it("serves a page of paused listings from their own index, index only", async () => {
    for (const search of [
      query({ status: "paused" }),
      query({ status: "paused", text: "consulting service" }),
    ]) {
      const { parts, inputs } = await explain(search);
      expect(parts).toContain("listings_paused_id_idx");
      expect(parts).toContain("Index Only Scan");
      expect(parts).not.toContain("listings_active_id_idx");
      expect(inputs).not.toContain("Sort");
    }
  });

  it("walks the active listings' index for a common term, reading titles from the index", async () => {
    const { parts, inputs } = await explain(query({ text: "consulting service" }));
    expect(parts).toContain("listings_active_id_idx");
    expect(parts).toContain("Index Only Scan");
    expect(inputs).not.toContain("Sort");
  });

  /** The nodes that ran for a search, and its titles, on the group's pool or in a transaction. */
  async function run(
    search: ListingSearch,
    on?: postgres.Sql | postgres.TransactionSql,
  ): Promise<{ ran: PlanNode[]; titles: string[] }> {
    const { db, sql } = ctx.connection();
    const client = on ?? sql;
    const built = searchQuery(db, search, NOW)!.toSQL();
    const params = built.params as never[];
    const [row] = await client.unsafe(`explain (analyze, format json) ${built.sql}`, params);
    const [plan] = Object.values(row ?? {})[0] as [{ Plan: PlanNode }];
    const found = await client.unsafe<{ title: string }[]>(built.sql, params);
    return { ran: ranNodes(plan.Plan), titles: found.map((l) => l.title) };
  }
  const scansOf = (ran: PlanNode[], index: string) => ran.filter((node) => node["Index Name"] === index);
  const newestFirst = [...ANCIENT].reverse();

  it("walks the active listings newest first, index only, for a common term too short for trigrams", async () => {
    const { ran, titles } = await run(query({ text: "co" }));
    expect(titles).toHaveLength(20);
    const walks = scansOf(ran, "listings_active_id_idx");
    expect(walks.map((node) => node["Node Type"])).toContain("Index Only Scan");
    // It stopped at the page: neither the grams index nor a longer walk ran.
    for (const walk of walks) expect(walk["Actual Rows"]).toBeLessThan(100);
    expect(scansOf(ran, "listings_title_grams_idx")).toEqual([]);
    expect(ran.map((node) => node["Node Type"])).not.toContain("Seq Scan");
  });

  for (const term of ["zq", "c++", "ZQ C"]) {
    it(`walks only the probe's part of the active listings for a rare term without a trigram (${term}), then the grams index`, async () => {
      const { ran, titles } = await run(query({ text: term }));
      expect(titles).toEqual(newestFirst);
      const walks = scansOf(ran, "listings_active_id_idx");
      expect(walks.length).toBeGreaterThan(0);
      for (const walk of walks) expect(walk["Actual Rows"]).toBeLessThanOrEqual(probeOf(WALK_INDEX_ONLY));
      expect(scansOf(ran, "listings_title_grams_idx")).toHaveLength(1);
      expect(scansOf(ran, "listings_title_trgm_idx")).toEqual([]);
      expect(ran.map((node) => node["Node Type"])).not.toContain("Seq Scan");
    });
  }

  it("walks on past the probe, not to the grams index, for a term without a trigram the probe finds a few times", async () => {
    // "r ab": an md5 tail starting "ab" after "offer", in ~1 title in 256: a few in the
    // probe's 2,000 entries, a page within the next few thousand.
    const { sql } = ctx.connection();
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from (select title_folded from listings where status = 'active'
        order by id desc limit ${probeOf(WALK_INDEX_ONLY)}) as head where strpos(title_folded, 'r ab') > 0`;
    expect(row?.n).toBeGreaterThan(2);
    expect(row?.n).toBeLessThan(20);
    const { ran, titles } = await run(query({ text: "r ab" }));
    expect(titles).toHaveLength(20);
    for (const title of titles) expect(title.toLowerCase()).toContain("r ab");
    expect(scansOf(ran, "listings_title_grams_idx")).toEqual([]);
    const walked = scansOf(ran, "listings_active_id_idx").reduce(
      (sum, walk) => sum + walk["Actual Rows"]!,
      0,
    );
    expect(walked).toBeGreaterThan(probeOf(WALK_INDEX_ONLY));
    expect(walked).toBeLessThan(WALK_INDEX_ONLY);
  });

  it("finds an absent 1-character term from the grams index after the probe", async () => {
    const { ran, titles } = await run(query({ text: "ж" }));
    expect(titles).toEqual([]);
    for (const walk of scansOf(ran, "listings_active_id_idx"))
      expect(walk["Actual Rows"]).toBeLessThanOrEqual(probeOf(WALK_INDEX_ONLY));
    expect(scansOf(ran, "listings_title_grams_idx")).toHaveLength(1);
  });

  it("stops short at the walk's end, reading at most OLDER_CAP candidates, for a term common only in older listings", async () => {
    const { sql } = ctx.connection();
    await sql
      .begin(async (tx) => {
        // "c#" in the oldest 3,000 active listings, none of the newer: the grams index has more than the cap.
        await tx`update listings set title = 'C# ' || title, title_folded = 'c# ' || title_folded
          where id in (select id from listings where status = 'active' and title like 'Consulting%'
            order by id limit ${OLDER_CAP + 1000})`;
        const { ran, titles } = await run(query({ text: "c#" }), tx);
        const heap = ran.filter((node) => node["Node Type"] === "Bitmap Heap Scan");
        expect(heap).toHaveLength(1);
        expect(heap[0]!["Actual Rows"]).toBeLessThanOrEqual(OLDER_CAP + 1);
        for (const walk of scansOf(ran, "listings_active_id_idx"))
          expect(walk["Actual Rows"]).toBeLessThanOrEqual(WALK_INDEX_ONLY);
        // The page is the walk's matches (none) and the marker row: the walk's last entry.
        const [edge] = await tx<{ id: string }[]>`select id from listings where status = 'active'
          order by id desc offset ${WALK_INDEX_ONLY - 1} limit 1`;
        expect(titles).toHaveLength(1);
        const built = searchQuery(ctx.connection().db, query({ text: "c#" }), NOW)!.toSQL();
        const rows = await tx.unsafe<{ id: string; resume: boolean }[]>(built.sql, built.params as never[]);
        expect(rows.map((row) => [row.id, row.resume])).toEqual([[edge!.id, true]]);
        // Below it, the walk finds them: a full page of the newest, no marker.
        const below = searchQuery(ctx.connection().db, query({ text: "c#", before: edge!.id }), NOW)!.toSQL();
        const next = await tx.unsafe<{ title: string; resume: boolean }[]>(
          below.sql,
          below.params as never[],
        );
        expect(next).toHaveLength(20);
        for (const row of next) {
          expect(row.title.startsWith("C# ")).toBe(true);
          expect(row.resume).toBe(false);
        }
        throw new Undo(); // roll the change back for the other cases
      })
      .catch((error: unknown) => {
        if (!(error instanceof Undo)) throw error;
      });
  });

  it("asks the grams index alone, not ANDed with a category's whole bitmap, for a rare short term", async () => {
    // A category larger than the walk, so the search gets past it.
    const { sql } = ctx.connection();
    await sql
      .begin(async (tx) => {
        await tx`update listings set category = 'legal-consulting'
          where id in (select id from listings order by id desc limit ${WALK_WITH_HEAP + 1000})`;
        await tx`analyze listings`;
        const { ran, titles } = await run(query({ text: "zq", category: "legal-consulting" }), tx);
        expect(titles).toEqual(newestFirst);
        for (const walk of scansOf(ran, "listings_category_status_id_idx"))
          expect(walk["Actual Rows"]).toBeLessThanOrEqual(probeOf(WALK_WITH_HEAP));
        expect(scansOf(ran, "listings_title_grams_idx")).toHaveLength(1);
        expect(ran.map((node) => node["Node Type"])).not.toContain("BitmapAnd");
        throw new Undo(); // roll the change back for the other cases
      })
      .catch((error: unknown) => {
        if (!(error instanceof Undo)) throw error;
      });
  });

  it("keeps to the dedicated indexes when the newest rows are all of another kind", async () => {
    // The newest rows all in one category and paused: a primary-key walk
    // filtering for another category, or for active rows, would read them all.
    const { sql } = ctx.connection();
    await sql
      .begin(async (tx) => {
        await tx`update listings set category = 'cybersecurity', status = 'paused'
        where id in (select id from listings order by id desc limit 2000)`;
        await tx`analyze listings`;
        const plan = async (search: ListingSearch) => {
          const built = searchQuery(ctx.connection().db, search, NOW)!.toSQL();
          return planParts(await tx.unsafe(`explain (format json) ${built.sql}`, built.params as never[]));
        };
        expect(await plan(query({ category: "legal-consulting" }))).toContain(
          "listings_category_status_id_idx",
        );
        expect(await plan(query({}))).toContain("listings_active_id_idx");
        expect(await plan(query({ text: "consulting service" }))).toContain("listings_active_id_idx");
        throw new Undo(); // roll the skew back for the other cases
      })
      .catch((error: unknown) => {
        if (!(error instanceof Undo)) throw error;
      });
  });

  it("sends a search with a term unnamed (planned with its pattern each time), a page without one named", async () => {
    const { db, sql } = ctx.connection(3);
    const { listings } = createRepositories(db);
    const searches = Array.from({ length: 30 }, () => listings.search(query({ text: "quokka" }), NOW));
    for (const found of await Promise.all(searches))
      expect(found.map((l) => l.title)).toEqual(["Quokka migration audit"]);
    const pages = Array.from({ length: 30 }, () => listings.search(query({}), NOW));
    for (const found of await Promise.all(pages)) expect(found.length).toBeGreaterThan(0);
    const reserved = await Promise.all([sql.reserve(), sql.reserve(), sql.reserve()]);
    const searchText = searchQuery(db, query({ text: "quokka" }), NOW)!.toSQL().sql;
    const pageText = searchQuery(db, query({}), NOW)!.toSQL().sql;
    let namedPages = 0;
    for (const connection of reserved) {
      // plan_cache_mode stays auto: a named statement may go generic, so a term must never be one.
      const [mode] = await connection<{ plan_cache_mode: string }[]>`show plan_cache_mode`;
      expect(mode?.plan_cache_mode).toBe("auto");
      const [named] = await connection<{ n: number }[]>`
        select count(*)::int as n from pg_prepared_statements where statement = ${searchText}`;
      expect(named?.n).toBe(0);
      const [page] = await connection<{ n: number }[]>`
        select count(*)::int as n from pg_prepared_statements where statement = ${pageText}`;
      namedPages += page?.n ?? 0;
      connection.release();
    }
    expect(namedPages).toBeGreaterThan(0);
  });

  it("a named page statement that went generic still walks the newest-first index", async () => {
    const { db, sql } = ctx.connection(1);
    for (const [search, index] of [
      [query({ category: "legal-consulting" }), "listings_category_status_id_idx"],
      // The status is written into the statement, so a generic plan proves the partial index's predicate.
      [query({}), "listings_active_id_idx"],
      [query({ status: "paused" }), "listings_paused_id_idx"],
    ] as const) {
      const built = searchQuery(db, search, NOW)!.toSQL();
      await sql.unsafe(`prepare psm_page as ${built.sql}`);
      const execute = `execute psm_page(${built.params.map(literal).join(", ")})`;
      for (let i = 0; i < 12; i++) await sql.unsafe(execute);
      const [plan] = await sql.unsafe(`explain (format json) ${execute}`);
      expect(planParts(plan)).toContain(index);
      await sql.unsafe("deallocate psm_page");
    }
  });
});
