import { expectBoundedFindAgrees, seedSparse } from "@psm/core/testing";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import * as schema from "../schema.js";
import { countExactly, countFacets, countSlice, toCounts } from "./listing-facets.js";
import { findExactly, findSlice } from "./listing-find.js";
import { tsQueryText } from "./listing-find-sql.js";

const NOW = new Date("2026-03-01T13:00:00.000Z");

it("writes tsqueries: every word, the last also a prefix", () => {
  expect(tsQueryText(["consult", "kube"])).toBe("'consult' & 'kube':*");
  expect(tsQueryText(["x"])).toBe("'x':*");
  // Weight A: the title's words in search_vector, what a walk checks for "every word in the title".
  expect(tsQueryText(["consult", "kube"], "A")).toBe("'consult':A & 'kube':*A");
  // A last word typed past its stem: also the word it completes, stemmed by PostgreSQL.
  expect(tsQueryText(["audit", "consulti"])).toBe("'audit' & ('consulti':* | 'consulting')");
});

it("counts facets from a result with a hole as lower bounds, flagged capped, never a failed page", () => {
  const rows = [
    { category: "cybersecurity" as const, n: 3 },
    undefined,
    { category: "legal-consulting" as const, n: 9 },
  ];
  expect(toCounts(rows, 5, false)).toEqual({
    counts: { cybersecurity: 3, "legal-consulting": 5 },
    capped: true,
  });
  expect(toCounts([{ category: "cybersecurity", n: 3 }], 5, false)).toEqual({
    counts: { cybersecurity: 3 },
    capped: false,
  });
});

describePostgres("postgres find at its budget", (ctx) => {
  // Both cases read the same 40 rows, seeded once whichever runs first.
  let seeded: ReturnType<typeof seedSparse> | undefined;
  const sparse = () => {
    seeded ??= seedSparse(ctx.storage().repositories);
    return seeded;
  };

  it("answers slices of its walk that, paged on, miss and repeat nothing", async () => {
    const rows = await sparse();
    const { db } = ctx.connection();
    // What a find answers once its time budget cancelled it: slices of 3 entries.
    await expectBoundedFindAgrees((query, now) => findSlice(db, query, now, 3), rows);
  });

  it("walks on into the next part of the sort while its slice lasts, so a small table is answered whole", async () => {
    const rows = await sparse();
    const { db } = ctx.connection();
    // 100 entries cover both parts of every sort (40 rows each): no page stops short, as a
    // search timed out on a busy machine must not find less than one that was not (issue 30).
    await expectBoundedFindAgrees((query, now) => findSlice(db, query, now, 100), rows, false);
  });

  it("answers exactly whether a part's probe fills the page or its GIN index reads the rest", async () => {
    const rows = await sparse();
    const { db } = ctx.connection();
    // Probes of 1 and 3 entries: most parts go on from the probe's last match through the GIN index.
    for (const probe of [1, 3]) {
      await expectBoundedFindAgrees((query, now) => findExactly(db, query, now, probe), rows, false);
    }
  });

  it("walks the newest entries once for both relevance ranks of a first page", async () => {
    await sparse();
    const sent: string[] = [];
    const client = postgres(ctx.database().url, { max: 1, debug: (_, query) => sent.push(query) });
    // A probe's walk: the newest entries of an index, read in a subquery of its own.
    const walks = () =>
      sent.filter((text) => text.includes('from (select "listings".* from "listings"')).length;
    try {
      const db = drizzle(client, { schema });
      const query = { status: "active", words: ["audit"], sort: "relevance", limit: 20 } as const;
      const found = await findExactly(db, query, NOW, 100);
      // Titles and descriptions both hold the word: the page has both ranks.
      expect(new Set(found.map((hit) => hit.rank))).toEqual(new Set([0, 1]));
      expect(walks()).toBe(1);
      // A next page starts within a rank: that rank's own walk, from the cursor.
      const last = found.at(-1);
      if (!last) throw new Error("no page");
      sent.length = 0;
      const after = { rank: last.rank, price: last.listing.price, id: last.listing.id };
      await findExactly(db, { ...query, after }, NOW, 100);
      expect(walks()).toBe(1);
    } finally {
      await client.end({ timeout: 5 });
    }
  });

  it("counts facets exactly, each up to the cap, or among a slice, flagged capped", async () => {
    await sparse();
    const { db } = ctx.connection();
    const query = { status: "active", words: ["audit"] } as const;
    expect(await countExactly(db, query, 1000, NOW)).toEqual({
      counts: { cybersecurity: 4, "data-analytics": 4 },
      capped: false,
    });
    expect(await countExactly(db, query, 3, NOW)).toEqual({
      counts: { cybersecurity: 3, "data-analytics": 3 },
      capped: true,
    });
    // The newest 10 of the 40 rows hold two matches (i = 30, 35).
    expect(await countSlice(db, query, 1000, NOW, 10)).toEqual({
      counts: { cybersecurity: 1, "data-analytics": 1 },
      capped: true,
    });
    // A walk that reaches the last entry has counted the whole match set.
    expect(await countSlice(db, query, 1000, NOW, 100)).toEqual({
      counts: { cybersecurity: 4, "data-analytics": 4 },
      capped: false,
    });
    // Few matches expected: counted exactly, words or not.
    expect(await countFacets(db, query, 1000, NOW)).toEqual(await countExactly(db, query, 1000, NOW));
    expect(await countFacets(db, { status: "active" }, 5, NOW)).toEqual(
      await countExactly(db, { status: "active" }, 5, NOW),
    );
  });
});
