import type { ListingSearch } from "@psm/core";
import { beforeAll, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { NOW, type PlanNode, query, ranNodes, seedPlanRows, Undo } from "../test/plan-support.js";
import { createRepositories } from "./repositories/index.js";
import { searchQuery } from "./repositories/listing-search.js";

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

/** A value as an SQL literal, for EXECUTE of a statement prepared in SQL. */
function literal(value: unknown): string {
  if (typeof value === "number") return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

describePostgres("postgres query plans", (ctx) => {
  let authorId = "";

  beforeAll(async () => {
    authorId = await seedPlanRows(ctx);
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
