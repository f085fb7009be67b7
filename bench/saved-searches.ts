/**
 * Saved-search matching benchmark (not a test): stores 100,000 saved searches, then creates
 * listings and times the matcher's rounds over them, printing milliseconds per new listing, the
 * candidates each listing looked at and the matches it made, on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL. Creating a listing does not touch saved searches at all: the
 * request path costs what it did.
 * Run: node --conditions=psm-source bench/saved-searches.ts [--searches 100000] [--listings 1000] [--rounds 5] [--batch 500] [--disjoint]
 * (--batch: listings a matching round takes on, as MatchOptions.batch, the matcher's default when absent; --disjoint: saved searches on words no listing holds, so only finding and checking candidates
 * is timed, not writing matches).
 */
import "./support/ts-resolve.ts";

// Imported after the hook is in place: static imports would resolve before it.
const { runSavedSearchBench } = await import("./support/saved-search-run.ts");
const { parseArgs } = await import("node:util");

const { values } = parseArgs({
  options: {
    searches: { type: "string", default: "100000" },
    listings: { type: "string", default: "1000" },
    rounds: { type: "string", default: "5" },
    batch: { type: "string" },
    disjoint: { type: "boolean", default: false },
  },
});
await runSavedSearchBench({
  searches: Number(values.searches),
  listings: Number(values.listings),
  rounds: Number(values.rounds),
  batch: values.batch === undefined ? undefined : Number(values.batch),
  disjoint: values.disjoint,
  postgresUrl: process.env.TEST_DATABASE_URL || undefined,
});
