import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { afterEach, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { namedUpTo, openConnection } from "./connection.js";

interface Prepared extends Record<string, unknown> {
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

describePostgres("the search pool's statements", (ctx) => {
  const opened: { end(options: { timeout: number }): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.end({ timeout: 5 })));
  });
  /** A search pool of one connection, so what its statements left is visible to the next query. */
  const searchConnection = () => {
    const client = openConnection(ctx.database().url, 1, 60_000);
    opened.push(client);
    return client;
  };
  const prepared = (client: ReturnType<typeof searchConnection>) =>
    client<Prepared[]>`select statement, generic_plans::int, custom_plans::int from pg_prepared_statements
      where statement like 'select $%' order by statement`;

  it("names the first texts up to the bound, and sends the rest unnamed", async () => {
    const client = searchConnection();
    const named = namedUpTo(client, 2);
    const sums: number[] = [];
    for (const text of ["select $1::int + 1 as n", "select $1::int + 2 as n", "select $1::int + 3 as n"]) {
      for (const value of [10, 20]) {
        const [row] = await named.unsafe<{ n: number }[]>(text, [value], { prepare: false });
        sums.push(Number(row?.n));
      }
    }
    expect(sums).toEqual([11, 21, 12, 22, 13, 23]);
    // Prepared once each on the connection, and run again from there; the third text never was.
    expect((await prepared(client)).map((row) => row.statement)).toEqual([
      "select $1::int + 1 as n",
      "select $1::int + 2 as n",
    ]);
  });

  it("plans a named search with the values of each call, as an unnamed one was", async () => {
    const client = searchConnection();
    expect((await client`show plan_cache_mode`)[0]).toEqual({ plan_cache_mode: "force_custom_plan" });
    // Through drizzle, as the repositories send it: with plan_cache_mode's default, a statement
    // this plain goes generic from its sixth run on.
    const db = drizzle(namedUpTo(client, 8));
    for (let i = 0; i < 8; i++) await db.execute(sql`select ${i}::int + 1 as n`);
    expect(await prepared(client)).toEqual([
      { statement: "select $1::int + 1 as n", generic_plans: 0, custom_plans: 8 },
    ]);
  });
});
