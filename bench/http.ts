/**
 * HTTP benchmark (issues 8 and 13): two ceilings, a bare node:http hello
 * (fixed bytes) and a bare node:http server that JSON.stringifies our own
 * 20-listing default page on every request, then the server on SQLite and on
 * PostgreSQL (when TEST_DATABASE_URL or a postgres DATABASE_URL answers),
 * each seeded with 20k listings, driven by autocannon; prints req/s, p50, p99
 * and both ratios per endpoint, and the targets; writes
 * bench/results/http-<date>.json and the README's performance table.
 * Run: pnpm bench:http [--duration 5] [--connections 32] [--rounds 3]
 *      [--warmup 2] [--listings 20000] [--no-postgres] [--no-readme]
 *      [--only <endpoint substrings, separated by |>] [--profile (CPU profiles of the servers)]
 * PG_POOL_MAX and PG_SEARCH_POOL_MAX in the environment are handed to the PostgreSQL server (its
 * defaults otherwise); PSM_BENCH_NODE_ARGS adds runtime flags to every server, PSM_BENCH_SERVER
 * runs another build's entry (A/B), PSM_BENCH_RUNTIME=bare starts it without the image's settings.
 */
import "./support/ts-resolve.ts";

await import("./support/http-run.js");
