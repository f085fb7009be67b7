/**
 * HTTP benchmark (issue 8): a bare node:http hello and a bare 20-listing page
 * (the two ceilings), then the server on SQLite and on PostgreSQL (when
 * TEST_DATABASE_URL or a postgres DATABASE_URL answers), each seeded with
 * 100k listings, driven by autocannon; prints the table and the targets,
 * writes bench/results/http-<date>.json and the README's performance table.
 * Run: pnpm bench:http [--duration 5] [--connections 32] [--rounds 3]
 *      [--warmup 2] [--listings 100000] [--no-postgres] [--no-readme]
 *      [--only <endpoint substring>] [--profile (CPU profiles of the servers)]
 */
import "./support/ts-resolve.ts";

await import("./support/http-run.js");
