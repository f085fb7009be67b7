import { runRepositoryContract } from "@psm/core/testing";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";
import { POSTGRES_SKIP_REASON, testDatabaseUrl } from "./testing/index.js";

// Every file skips with a named test; this one also prints the reason, so a
// default (non-verbose) run shows it once.
if (testDatabaseUrl() === undefined) console.warn(`PostgreSQL tests skipped: ${POSTGRES_SKIP_REASON}`);

// The group's database is migrated once; each case's open() only empties the tables.
describePostgres("postgres storage", (ctx) => {
  runRepositoryContract("postgres", {
    open: async () => {
      await ctx.database().truncate();
      // The contract asks what a search answers, not how fast: on a loaded machine a search of a
      // few rows can outlast the 35 ms budget and answer its slice, a right answer of another kind
      // (search-budget.test.ts and search-bound.test.ts test the bound with budgets of their own).
      return openPostgresStorage({ url: ctx.database().url, poolMax: 5, searchTimeoutMs: 10_000 });
    },
  });
});
