import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { foldSearchText } from "@psm/core";
import { buildUser } from "@psm/core/testing";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { describe, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { idAt, NOW, TITLES } from "../test/tricky-titles.js";
import { connect } from "./connection.js";
import { openPostgresStorage } from "./index.js";
import { MIGRATIONS_FOLDER } from "./migrations-folder.js";
import { hasTrigram } from "./repositories/listing-search.js";
import { termGrams } from "./repositories/listing-search-short.js";
import { createTestDatabase, testDatabaseUrl } from "./testing/index.js";

/** The grams psm_title_grams should give for a folded title, by its definition. */
function expectedGrams(folded: string): Set<string> {
  const chars = Array.from(folded);
  const plain = (c: string) => /^[a-z0-9]$/.test(c);
  const grams = new Set(chars);
  for (let i = 0; i + 2 <= chars.length; i++) grams.add(chars[i]! + chars[i + 1]!);
  for (let i = 0; i + 3 <= chars.length; i++) {
    const window = chars.slice(i, i + 3);
    if (!window.every(plain)) grams.add(window.join(""));
  }
  return grams;
}

describe("termGrams", () => {
  it("is the term itself up to two code points, else its distinct 3-code-point windows", () => {
    expect(termGrams("q")).toEqual(["q"]);
    expect(termGrams("qu")).toEqual(["qu"]);
    expect(termGrams("𐐨")).toEqual(["𐐨"]); // one code point, two UTF-16 units
    expect(termGrams("𐐨𐐩")).toEqual(["𐐨𐐩"]);
    expect(termGrams("e\u0301")).toEqual(["e\u0301"]);
    expect(termGrams("c++")).toEqual(["c++"]);
    expect(termGrams("a b a b")).toEqual(["a b", " b ", "b a", " a "]);
    expect(termGrams("😀 🎉")).toEqual(["😀 🎉"]);
    expect(termGrams("x.y.z")).toEqual(["x.y", ".y.", "y.z"]);
  });
});

describePostgres("psm_title_grams", (ctx) => {
  it("gives every character, pair, and triple with a character outside a-z and 0-9, by code point", async () => {
    const { sql } = ctx.connection();
    for (const title of [...TITLES, "", "a", "ab", "abc", "ab+", "MÜLLER Consulting"]) {
      const folded = foldSearchText(title);
      const [row] = await sql<{ grams: string[] }[]>`select psm_title_grams(${folded}) as grams`;
      expect(new Set(row?.grams), JSON.stringify(title)).toEqual(expectedGrams(folded));
    }
  });

  it("holds the grams of every term without a trigram that a title holds", async () => {
    const { sql } = ctx.connection();
    for (const title of TITLES) {
      const folded = foldSearchText(title);
      const [row] = await sql<{ grams: string[] }[]>`select psm_title_grams(${folded}) as grams`;
      const grams = new Set(row?.grams);
      const chars = Array.from(folded);
      for (let from = 0; from < chars.length; from++) {
        for (let to = from + 1; to <= Math.min(chars.length, from + 6); to++) {
          const term = chars.slice(from, to).join("");
          if (hasTrigram(term)) continue;
          for (const gram of termGrams(term)) expect(grams.has(gram), `${title}: ${term}`).toBe(true);
        }
      }
    }
  });
});

describePostgres("postgres migration to the grams index", () => {
  it("indexes the grams of listings stored before it", async () => {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    const cut = journal.entries.findIndex((entry) => entry.tag === "0005_title_grams");
    expect(cut).toBeGreaterThan(0);
    const old = await createTestDatabase(testDatabaseUrl()!);
    const folder = await mkdtemp(join(tmpdir(), "psm-pg-migrations-"));
    const { sql, db } = connect(old.url, 1);
    try {
      // The schema before the grams index, with listings in it.
      await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
      await writeFile(
        join(folder, "meta", "_journal.json"),
        JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }),
      );
      await migrate(db, { migrationsFolder: folder });
      const user = buildUser();
      await sql`insert into users (id, email, display_name, account_type, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.createdAt.toISOString()})`;
      const titles = ["Old zq offer", "Old c++ shop", "Old 😀 party", "Plain listing"];
      await sql`insert into listings ${sql(
        titles.map((title, i) => ({
          id: idAt(1_700_000_000_000, i),
          user_id: user.id,
          title,
          title_folded: foldSearchText(title),
          description: "d",
          category: "legal-consulting",
          condition: "new",
          images: "[]",
          status: "active",
          created_at: NOW.toISOString(),
        })),
      )}`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
      } finally {
        await storage.close();
      }
      // Read through the index alone, so a row it lacks is a row not found.
      const count = (grams: string[]) =>
        sql.begin(async (tx) => {
          await tx`set local enable_seqscan = off`;
          const plan = await tx.unsafe(
            "explain select 1 from listings where psm_title_grams(title_folded) @> $1::text[]",
            [grams] as never[],
          );
          expect(plan.map((row) => Object.values(row)[0]).join("\n")).toContain("listings_title_grams_idx");
          const [row] = await tx<{ n: number }[]>`
            select count(*)::int as n from listings where psm_title_grams(title_folded) @> ${grams}::text[]`;
          return row?.n;
        });
      expect(await count(["zq"])).toBe(1);
      expect(await count(["c++"])).toBe(1);
      expect(await count(["😀"])).toBe(1);
      expect(await count(["o"])).toBe(3);
      expect(await count(["ж"])).toBe(0);
      // No statistics for ANALYZE to compute on the index expression.
      const [target] = await sql<{ t: number }[]>`
        select attstattarget as t from pg_attribute
        where attrelid = 'listings_title_grams_idx'::regclass and attnum = 1`;
      expect(target?.t).toBe(0);
    } finally {
      await sql.end({ timeout: 5 });
      await rm(folder, { recursive: true, force: true });
      await old.drop();
    }
  });
});
