/**
 * Soak (issue 8): mixed traffic (reads, searches, creates, views, messages,
 * key creation, logins, account churn) from many clients against a fresh
 * server for a bounded time, then checks against the database: no 5xx, every
 * 201 stored, every acknowledged view counted once, slots never exceeded, no
 * orphaned rows. Prints RSS over time; exits 1 on any violation.
 * Run: pnpm soak [--duration 60] [--clients 24] [--users 12] [--postgres]
 */
import "./support/ts-resolve.ts";

await import("./support/soak-run.js");
