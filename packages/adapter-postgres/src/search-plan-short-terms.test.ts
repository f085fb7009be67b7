import type { ListingSearch } from "@psm/core";
import type postgres from "postgres";
import { beforeAll, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { ANCIENT, NOW, type PlanNode, query, ranNodes, seedPlanRows, Undo } from "../test/plan-support.js";
import { searchQuery } from "./repositories/listing-search.js";
import { probeOf, WALK_INDEX_ONLY, WALK_WITH_HEAP } from "./repositories/listing-search-shape.js";
import { OLDER_CAP } from "./repositories/listing-search-short.js";

describePostgres("postgres query plans: terms without a trigram", (ctx) => {
  beforeAll(async () => {
    await seedPlanRows(ctx);
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
});
