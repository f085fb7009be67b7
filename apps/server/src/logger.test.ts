import { Writable } from "node:stream";
import { MarketplaceError } from "@psm/core";
import { describe, expect, it } from "vitest";
import { accessLogger, createLogger } from "./logger.js";

/** A logger at `level` whose lines land in the returned array, parsed. */
function capture(level = "info") {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines };
}

/** A driver error as drizzle wraps it: the query's parameters in the message and as a property. */
function driverFailure(): MarketplaceError {
  const driver = Object.assign(new Error('relation "listings" does not exist'), { code: "42P01" });
  const query = Object.assign(
    new Error("Failed query: select * from listings\nparams: alice@example.com,42"),
    {
      params: ["alice@example.com", 42],
      cause: driver,
    },
  );
  query.name = "DrizzleQueryError";
  return new MarketplaceError("internal_error", undefined, { cause: query });
}

describe("createLogger", () => {
  it("logs an Error's whole cause chain with each driver code, never the query's parameters", () => {
    const { logger, lines } = capture();
    logger.error({ err: driverFailure() }, "mail dispatch failed");
    logger.flush();
    const err = lines[0]?.err as Record<string, Record<string, Record<string, unknown>>>;
    expect(err).toMatchObject({
      name: "MarketplaceError",
      message: "Internal server error",
      cause: {
        name: "DrizzleQueryError",
        message: expect.stringContaining("select * from listings"),
        cause: { name: "Error", code: "42P01", message: 'relation "listings" does not exist' },
      },
    });
    expect(err.cause?.cause?.stack).toContain("logger.test.ts");
    expect(JSON.stringify(lines)).not.toContain("alice@example.com");
  });

  it("passes an error the HTTP adapter already described through as it is", () => {
    const { logger, lines } = capture();
    const described = { name: "SqliteError", message: "no such table: listings", code: "SQLITE_ERROR" };
    logger.error(
      { err: { name: "MarketplaceError", message: "Internal server error", cause: described } },
      "x",
    );
    logger.flush();
    expect(lines[0]?.err).toEqual({
      name: "MarketplaceError",
      message: "Internal server error",
      cause: described,
    });
  });

  it("still redacts credentials", () => {
    const { logger, lines } = capture();
    logger.info({ token: "secret-token", authorization: "Bearer abc" }, "x");
    logger.flush();
    expect(lines[0]).toMatchObject({ token: "[redacted]", authorization: "[redacted]" });
  });

  it("writes access lines to the same destination at the same level, while the logger itself still redacts", () => {
    const { logger, lines } = capture("warn");
    const access = accessLogger(logger);
    access.info({ path: "/api/listings" }, "request");
    access.warn({ path: "/api/listings", status: 503 }, "request");
    logger.warn({ token: "secret-token" }, "x");
    logger.flush();
    expect(lines).toEqual([
      expect.objectContaining({ path: "/api/listings", status: 503, msg: "request" }),
      expect.objectContaining({ token: "[redacted]", msg: "x" }),
    ]);
  });
});
