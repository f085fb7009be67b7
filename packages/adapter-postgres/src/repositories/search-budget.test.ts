import { foldSearchText, type ListingRepository, type ListingSearch } from "@psm/core";
import { buildUser } from "@psm/core/testing";
import type postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import { openPostgresStorage } from "../index.js";
import { createRepositories } from "./index.js";
import { shape, WALK_INDEX_ONLY, WALK_WITH_HEAP } from "./listing-search-shape.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const PAST = new Date("2026-01-01T00:00:00.000Z");

/** A search, and its shape in plain SQL: the rows its index holds, and what filters them on the way. */
interface Case {
  search: ListingSearch;
  index: postgres.Fragment;
  rest: postgres.Fragment;
}

/** What a search answers: its listings' ids and where it stopped short. */
interface Answer {
  ids: string[];
  resumeBefore: string | undefined;
}

describePostgres("postgres search budget", (ctx) => {
  // A budget no search of 30,000 titles that reads past a walk fits in, so the cancellation is certain.
  let tight: ReturnType<typeof openPostgresStorage>;
  const author = buildUser();
  const other = buildUser();
  let cases: Case[] = [];

  beforeAll(async () => {
    const { sql } = ctx.connection();
    for (const user of [author, other]) await ctx.storage().repositories.users.insert(user);
    // "Consulting offer service" in one title in 1,000, evenly: every phrase of it has all its
    // trigrams in every title, and a walk of 5,000 entries holds fewer matches than a page.
    await sql`
      insert into listings (id, user_id, title, title_folded, description, category, condition, images,
        status, created_at, expires_at)
      select (lpad(to_hex(1700000000000 + i), 12, '0') || '7' || substr(md5(i::text), 1, 3) || '8'
          || substr(md5(i::text), 4, 15))::uuid,
        case when i % 4 = 0 then ${other.id}::uuid else ${author.id}::uuid end, t, lower(t), 'd',
        case when i % 3 = 0 then 'software-development' else 'legal-consulting' end, 'new', '[]',
        case when i % 11 = 0 then 'paused' else 'active' end, now(),
        case when i % 13 = 0 then ${PAST.toISOString()}::timestamptz end
      from generate_series(1, 30000) as i,
        lateral (select case when i % 1000 = 7 then 'Consulting offer service ' else 'Consulting service ' end
          || (i % 97) || ' offer ' || md5(i::text) as t) as title`;
    await sql`vacuum analyze listings`;
    tight = openPostgresStorage({ url: ctx.database().url, poolMax: 1, searchTimeoutMs: 1 });
    const live = sql`(expires_at is null or expires_at > ${NOW.toISOString()}::timestamptz)`;
    cases = [
      { search: { limit: 21, status: "active" }, index: sql`status = 'active'`, rest: live },
      {
        search: { limit: 21, status: "active", category: "legal-consulting" },
        index: sql`category = 'legal-consulting' and status = 'active'`,
        rest: live,
      },
      { search: { limit: 21, status: "all" }, index: sql`true`, rest: sql`true` },
      {
        search: { limit: 21, status: "all", userId: other.id },
        index: sql`user_id = ${other.id}`,
        rest: sql`true`,
      },
    ];
  });
  afterAll(async () => {
    await tight.close();
  });

  /** The search by definition, below `before`: every match of the whole table, newest first. */
  async function allMatches(c: Case, text: string): Promise<string[]> {
    const { sql } = ctx.connection();
    const rows = await sql<{ id: string }[]>`select id from listings
      where ${c.index} and ${c.rest} and strpos(title_folded, ${foldSearchText(text)}) > 0 order by id desc`;
    return rows.map((row) => row.id);
  }

  /** The matches among the next `walk` entries of the search's index below `before`, and the walk's last. */
  async function slice(c: Case, text: string, before: string | undefined): Promise<Answer> {
    const { sql } = ctx.connection();
    const { walk } = shape(c.search, NOW);
    const entries = await sql<{ id: string; hit: boolean }[]>`
      select id, strpos(title_folded, ${foldSearchText(text)}) > 0 and ${c.rest} as hit from listings
      where ${c.index} and ${before === undefined ? sql`true` : sql`id < ${before}`}
      order by id desc limit ${walk}`;
    const ids = entries.filter((entry) => entry.hit).map((entry) => entry.id);
    const limit = c.search.limit;
    // A page the slice fills is whole: its last match is the cursor, not the walk's end.
    if (ids.length >= limit) return { ids: ids.slice(0, limit), resumeBefore: undefined };
    return { ids, resumeBefore: entries.length === walk ? entries.at(-1)?.id : undefined };
  }

  async function answer(listings: ListingRepository, search: ListingSearch): Promise<Answer> {
    const found = await listings.search(search, NOW);
    return { ids: found.map((listing) => listing.id), resumeBefore: found.resumeBefore };
  }

  it("answers a search cancelled at its budget with the matches among its walk, and where it stopped", async () => {
    const active = cases[0]!;
    expect(shape(active.search, NOW).walk).toBe(WALK_INDEX_ONLY);
    // In no title, though each of its trigrams is in all of them (every title is rechecked), and
    // the same without a trigram (the grams index hands over every title).
    for (const text of ["consulting service consulting", "ce c"]) {
      const found = await answer(tight.repositories.listings, { ...active.search, text });
      const expected = await slice(active, text, undefined);
      expect(expected.resumeBefore).toBeDefined();
      expect(found, text).toEqual(expected);
    }
  });

  it("pages through every match below where each slice stopped, in every shape", async () => {
    const text = "offer service";
    let short = 0;
    for (const c of cases) {
      if (c.search.status === "all") expect(shape(c.search, NOW).walk).toBe(WALK_WITH_HEAP);
      const seen: string[] = [];
      let before: string | undefined;
      for (let guard = 0; guard < 100; guard++) {
        const found = await answer(tight.repositories.listings, { ...c.search, text, before });
        expect(found, `${JSON.stringify(c.search)} before ${before}`).toEqual(await slice(c, text, before));
        seen.push(...found.ids);
        if (found.resumeBefore !== undefined) short++;
        const next = found.resumeBefore ?? (found.ids.length < c.search.limit ? undefined : found.ids.at(-1));
        if (next === undefined) break;
        before = next;
      }
      expect(seen, JSON.stringify(c.search)).toEqual(await allMatches(c, text));
    }
    // A term with a trigram never stops short but at the budget: these pages were slices.
    expect(short).toBeGreaterThan(cases.length);
  });

  it("answers a search within the default budget whole", async () => {
    const { listings } = ctx.storage().repositories;
    for (const text of ["offer 5", "e 1"]) {
      const found = await answer(listings, { ...cases[0]!.search, text });
      expect(found, text).toEqual({
        ids: (await allMatches(cases[0]!, text)).slice(0, 21),
        resumeBefore: undefined,
      });
    }
  });

  it("leaves searches in a unit of work and pages without a term unbounded", async () => {
    const search = { ...cases[0]!.search, text: "consulting service consulting" };
    const found = await tight.repositories.unitOfWork.run((units) => answer(units.listings, search));
    expect(found).toEqual({ ids: [], resumeBefore: undefined });
    const page = await tight.repositories.listings.search({ limit: 21, status: "active" }, NOW);
    expect(page).toHaveLength(21);
    expect(page.resumeBefore).toBeUndefined();
  });

  it("keeps the bound on the search connection after a slice, and none on the writes' pool", async () => {
    // One search connection: each slice lifts the bound in a transaction of its own (SET LOCAL),
    // so the next search on that connection is cancelled at the bound again and answers its slice.
    const active = cases[0]!;
    const text = "consulting service consulting";
    const expected = await slice(active, text, undefined);
    for (let round = 0; round < 3; round++) {
      expect(await answer(tight.repositories.listings, { ...active.search, text }), `round ${round}`).toEqual(
        expected,
      );
    }
    // The writes' pool carries no bound: the same search in a unit of work (on that pool) runs whole.
    const whole = await tight.repositories.unitOfWork.run((units) =>
      answer(units.listings, { ...active.search, text }),
    );
    expect(whole).toEqual({ ids: [], resumeBefore: undefined });
    // Nor does a repository built over a pool of its own without a search pool (tests of plans).
    const connection = ctx.connection(1);
    const { listings } = createRepositories(connection.db);
    expect(await answer(listings, { ...active.search, text })).toEqual({ ids: [], resumeBefore: undefined });
    const [setting] = await connection.sql<
      { value: string }[]
    >`select current_setting('statement_timeout') as value`;
    expect(setting?.value).toBe("0");
  });
});
