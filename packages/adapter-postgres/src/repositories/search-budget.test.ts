import { buildUser } from "@psm/core/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import { openPostgresStorage } from "../index.js";
import { createRepositories } from "./index.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

describePostgres("postgres search budget", (ctx) => {
  // A budget no search of 30,000 titles fits in, so the cancellation is certain.
  let tight: ReturnType<typeof openPostgresStorage>;

  beforeAll(async () => {
    const { sql } = ctx.connection();
    const author = buildUser();
    await ctx.storage().repositories.users.insert(author);
    await sql`
      insert into listings (id, user_id, title, title_folded, description, category, condition, images,
        status, created_at)
      select (lpad(to_hex(1700000000000 + i), 12, '0') || '7' || substr(md5(i::text), 1, 3) || '8'
          || substr(md5(i::text), 4, 15))::uuid,
        ${author.id}, t, lower(t), 'd', 'legal-consulting', 'new', '[]', 'active', now()
      from generate_series(1, 30000) as i,
        lateral (select 'Consulting service ' || (i % 97) || ' offer ' || md5(i::text) as t) as title`;
    await sql`vacuum analyze listings`;
    tight = openPostgresStorage({ url: ctx.database().url, poolMax: 1, searchTimeoutMs: 1 });
  });
  afterAll(async () => {
    await tight.close();
  });

  it("cancels a search with a term at its budget, in the server, and says the term is too broad", async () => {
    // In no title, though each of its trigrams is in all of them: every title is rechecked.
    for (const text of ["consulting service consulting", "ce c"]) {
      const failure = await tight.repositories.listings
        .search({ limit: 21, status: "active", text }, NOW)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure, text).toMatchObject({ code: "invalid_input", field: "search" });
      expect(String((failure as Error).message)).toContain("too broadly");
    }
    // The default budget answers it.
    const answered = await ctx
      .storage()
      .repositories.listings.search(
        { limit: 21, status: "active", text: "consulting service consulting" },
        NOW,
      );
    expect(answered).toEqual([]);
  });

  it("leaves pages without a term unbounded, and the connection without the budget after a search", async () => {
    const page = await tight.repositories.listings.search({ limit: 21, status: "active" }, NOW);
    expect(page).toHaveLength(21);
    // One connection: the setting a search made must end with the search's transaction.
    const connection = ctx.connection(1);
    const { listings } = createRepositories(connection.db, { searchTimeoutMs: 5_000 });
    const found = await listings.search({ limit: 21, status: "active", text: "offer 5" }, NOW);
    expect(found.length).toBeGreaterThan(0);
    const [after] = await connection.sql<
      { setting: string }[]
    >`select current_setting('statement_timeout') as setting`;
    expect(after?.setting).toBe("0");
  });
});
