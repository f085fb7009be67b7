import { foldSearchText, type ListingRepository, type ListingSearch } from "@psm/core";
import { buildUser } from "@psm/core/testing";
import { beforeAll, expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import { idAt, NOW, TITLES } from "../../test/tricky-titles.js";
import { hasTrigram } from "./listing-search.js";
import { WALK_INDEX_ONLY, WALK_WITH_HEAP } from "./listing-search-shape.js";

const PAST = new Date("2026-01-01T00:00:00.000Z");
const FUTURE = new Date("2027-01-01T00:00:00.000Z");

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
