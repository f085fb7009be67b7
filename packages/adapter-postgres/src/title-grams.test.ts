import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { foldSearchText, type ListingRepository, type ListingSearch } from "@psm/core";
import { buildUser } from "@psm/core/testing";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { beforeAll, describe, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { connect } from "./connection.js";
import { openPostgresStorage } from "./index.js";
import { MIGRATIONS_FOLDER } from "./migrations-folder.js";
import { hasTrigram } from "./repositories/listing-search.js";
import { WALK_INDEX_ONLY, WALK_WITH_HEAP } from "./repositories/listing-search-shape.js";
import { termGrams } from "./repositories/listing-search-short.js";
import { createTestDatabase, testDatabaseUrl } from "./testing/index.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const PAST = new Date("2026-01-01T00:00:00.000Z");
const FUTURE = new Date("2027-01-01T00:00:00.000Z");

// Titles where characters are not what they seem: LIKE's wildcards and escape,
// precomposed and combining accents, letters whose lower case is longer or
// context-dependent, fullwidth forms, letter-like symbols, and characters
// outside the Basic Multilingual Plane (two UTF-16 units, one code point).
const TITLES = [
  "50% discount audit",
  "a_b testing playbook",
  "C\\D migration plan",
  "100% _real_ \\\\ path",
  "Café CRÈME roasting",
  "Cafe\u0301 de\u0301cor consulting",
  "STRAẞE planning",
  "İSTANBUL office setup",
  "ΟΔΟΣ ΣΟΦΙΑΣ strategy",
  "ＦＵＬＬＷＩＤＴＨ ａｐｐ",
  "5 \u212A resistor, 10 \u2126 load",
  "ǅungla review",
  "𐐀𐐁 Deseret primer",
  "😀 emoji 🎉 party",
  "c++ & c# shop",
  "x.y release",
  "a b c d",
  "Q",
  "日本語 サービス",
];

// 1- and 2-character terms, and longer ones without three letters or digits in a row.
const TERMS = [
  "%",
  "_",
  "\\",
  "%%",
  "0%",
  "a_",
  "_b",
  "c\\",
  "\\\\",
  "é",
  "e\u0301",
  "\u0301",
  "ß",
  "ẞ",
  "İ",
  "i",
  "ς",
  "σ",
  "ａ",
  "k",
  "\u212A",
  "𐐀",
  "𐐨𐐩",
  "😀",
  "😀 ",
  " 🎉",
  "c++",
  "c#",
  "x.y",
  "a b",
  "b c d",
  "5 k",
  "q",
  "語",
  "a",
  "co",
  "zz",
  "ж",
  "q+z",
  // In ~1 filler title in 256 ("offer " before an md5 starting "ab"): a few matches in the
  // probe, a page within the walk.
  "r ab",
];

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

/** A listing row as the oracle sees it. */
interface Row {
  id: string;
  title: string;
  status: string;
  category: string;
  user_id: string;
  /** expires_at in epoch milliseconds (this pool reads timestamps as text). */
  expires_ms: number | null;
}

/** The search by definition: foldSearchText(title) holds foldSearchText(term), the filters, id descending. */
function oracle(rows: Row[], search: ListingSearch, now: Date): string[] {
  const needle = foldSearchText(search.text ?? "");
  const live = (row: Row) => row.expires_ms === null || row.expires_ms > now.getTime();
  return rows
    .filter((row) => foldSearchText(row.title).includes(needle))
    .filter((row) => {
      if (search.status === "active") return row.status === "active" && live(row);
      if (search.status === "expired") return row.status === "active" && !live(row);
      if (search.status === "paused") return row.status === "paused";
      return true;
    })
    .filter((row) => search.category === undefined || row.category === search.category)
    .filter((row) => search.userId === undefined || row.user_id === search.userId)
    .filter((row) => search.before === undefined || row.id < search.before)
    .map((row) => row.id)
    .sort()
    .reverse()
    .slice(0, Math.max(0, search.limit));
}

/** A UUIDv7-shaped id for millisecond `ms` whose tail orders rows of one millisecond by `n`. */
function idAt(ms: number, n: number): string {
  const hex = ms.toString(16).padStart(12, "0");
  const tail = n.toString(16).padStart(15, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8${tail.slice(0, 3)}-${tail.slice(3)}`;
}

describePostgres("postgres search for terms without a trigram, against a brute-force filter", (ctx) => {
  // More rows than any walk, in every shape that walks: the big author and the
  // big category hold more than WALK_WITH_HEAP, the active rows more than
  // WALK_INDEX_ONLY, so the tricky titles among the oldest rows are reached
  // through the grams index, those among the newest through the walk.
  const FILLER = WALK_INDEX_ONLY + 4000;
  const authors = [buildUser(), buildUser(), buildUser()];
  const [big, small] = authors.map((u) => u.id) as [string, string];
  let rows: Row[] = [];

  beforeAll(async () => {
    const { sql } = ctx.connection();
    for (const user of authors) await ctx.storage().repositories.users.insert(user);
    const base = 1_700_000_000_000;
    await sql`
      insert into listings (id, user_id, title, title_folded, description, category, condition, images,
        status, created_at)
      select (lpad(to_hex(${base}::bigint + i), 12, '0') || '7000' || '8' || lpad(to_hex(i), 15, '0'))::uuid,
        case when i % 24 < 7 then ${big}::uuid else ${small}::uuid end, t, lower(t), 'd',
        case when i % 10 < 6 then 'software-development' else 'legal-consulting' end, 'new', '[]',
        case when i % 10 = 3 then 'paused' else 'active' end, now()
      from generate_series(1, ${FILLER}) as i,
        lateral (select 'Consulting service ' || (i % 97) || ' offer ' || md5(i::text) as t) as title`;
    // Each tricky title three times: older than every filler row, amid them, newest;
    // in varied states, categories and authors.
    const special: Record<string, unknown>[] = [];
    const places = [base - 1_000_000, base + FILLER / 2, base + FILLER + 1_000_000];
    for (const [p, ms] of places.entries()) {
      for (const [t, title] of TITLES.entries()) {
        const k = p * TITLES.length + t;
        special.push({
          id: idAt(ms, k),
          user_id: authors[k % 3]!.id,
          title,
          title_folded: foldSearchText(title),
          description: "d",
          category: k % 4 === 0 ? "legal-consulting" : "software-development",
          condition: "new",
          images: "[]",
          status: k % 7 === 5 ? "paused" : "active",
          expires_at: k % 5 === 2 ? PAST.toISOString() : k % 5 === 4 ? FUTURE.toISOString() : null,
          created_at: NOW.toISOString(),
        });
      }
    }
    await sql`insert into listings ${sql(special)}`;
    await sql`vacuum analyze listings`;
    rows = await sql<Row[]>`select id, title, status, category, user_id,
      (extract(epoch from expires_at) * 1000)::float8 as expires_ms from listings`;
  });

  const shapes = (): ListingSearch[] => [
    { limit: 21, status: "active" },
    { limit: 21, status: "active", category: "software-development" },
    { limit: 21, status: "active", category: "legal-consulting" },
    { limit: 21, status: "all" },
    { limit: 21, status: "all", category: "legal-consulting" },
    { limit: 21, status: "expired" },
    { limit: 21, status: "paused" },
    { limit: 21, status: "active", userId: big },
    { limit: 21, status: "all", userId: big },
    { limit: 21, status: "expired", userId: small },
    { limit: 3, status: "active" },
    { limit: 3, status: "active", userId: big },
    { limit: 0, status: "active" },
  ];

  /**
   * The search's first `limit` matches, going on below `resumeBefore` as core
   * does when the storage stopped short; and how many times it did.
   */
  async function searchThrough(
    listings: ListingRepository,
    search: ListingSearch,
  ): Promise<{ ids: string[]; short: number }> {
    const ids: string[] = [];
    let before = search.before;
    for (let short = 0; short < 100; short++) {
      const found = await listings.search({ ...search, before, limit: search.limit - ids.length }, NOW);
      ids.push(...found.map((l) => l.id));
      if (found.resumeBefore === undefined || ids.length >= search.limit) return { ids, short };
      expect(before === undefined || found.resumeBefore < before).toBe(true);
      before = found.resumeBefore;
    }
    throw new Error(`a search stopped short 100 times: ${JSON.stringify(search)}`);
  }

  it("finds exactly the titles holding the term, in every shape of search", async () => {
    const { listings } = ctx.storage().repositories;
    let short = 0;
    for (const text of TERMS) {
      expect(hasTrigram(foldSearchText(text)), text).toBe(false);
      for (const shape of shapes()) {
        const search = { ...shape, text };
        const found = await searchThrough(listings, search);
        short += found.short;
        expect(found.ids, `${JSON.stringify(text)} ${JSON.stringify(shape)}`).toEqual(
          oracle(rows, search, NOW),
        );
      }
    }
    // Terms in every filler title ("i", "e") have more candidates than OLDER_CAP: some searches stop short.
    expect(short).toBeGreaterThan(0);
  });

  it("pages through a term's matches with `before`, across the walk and the grams index", async () => {
    const { listings } = ctx.storage().repositories;
    for (const text of ["%", "😀", "k", "c+", "_", "\\", "a b", "r ab"]) {
      for (const shape of [{ status: "active" as const }, { status: "all" as const, userId: big }]) {
        const all = oracle(rows, { ...shape, text, limit: 10_000 }, NOW);
        const seen: string[] = [];
        let before: string | undefined;
        for (let guard = 0; guard < 50; guard++) {
          const page = await listings.search({ ...shape, text, limit: 2, before }, NOW);
          seen.push(...page.map((l) => l.id));
          if (page.resumeBefore !== undefined) before = page.resumeBefore;
          else if (page.length < 2) break;
          else before = page.at(-1)!.id;
        }
        expect(seen, `${JSON.stringify(text)} ${JSON.stringify(shape)}`).toEqual(all);
      }
    }
  });

  it("has tricky titles both within the walks and beyond them", () => {
    // Guards the dataset: the cases above must take every branch.
    const active = rows.filter((row) => row.status === "active").length;
    expect(active).toBeGreaterThan(WALK_INDEX_ONLY + 2 * TITLES.length);
    expect(rows.filter((row) => row.user_id === big).length).toBeGreaterThan(WALK_WITH_HEAP);
    expect(rows.filter((row) => row.category === "software-development").length).toBeGreaterThan(
      WALK_WITH_HEAP,
    );
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
