import { expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";

describePostgres("the driver after a query that failed mid-result", (ctx) => {
  // postgres.js 3.4.9 kept its row counter when a query failed after some rows (a statement
  // timeout mid-stream does this), so the next query on the connection answered a sparse array:
  // holes, then its rows. Searches under load failed on it (a TypeError building a page) and facet
  // counts saw holes. Patched in patches/postgres@3.4.9.patch (porsager/postgres#1119, #1181).
  it("answers the next query on the connection with its rows alone", async () => {
    const { sql } = ctx.connection(1);
    const failing = sql`select i, 1 / (4 - i) as boom from generate_series(1, 10) as i`.then(
      () => "answered",
      (error: Error) => error.message,
    );
    const next = sql`select x from generate_series(1, 5) as x`;
    expect(await failing).toMatch(/division by zero/);
    const rows = await next;
    expect(rows.length).toBe(5);
    expect([...rows].map((row) => row.x)).toEqual([1, 2, 3, 4, 5]);
  });
});
