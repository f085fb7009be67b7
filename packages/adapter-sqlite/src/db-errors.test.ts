import { type Category, isMarketplaceError, MarketplaceError } from "@psm/core";
import { buildApiKey, buildListing, buildUser } from "@psm/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { toMarketplaceError } from "./db-errors.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

const NOW = new Date("2026-03-01T12:00:00.000Z");
const ROOM = { maxSlots: 100, now: NOW };

/** The rejection of `promise`, which must be a MarketplaceError. */
async function failure(promise: Promise<unknown>): Promise<MarketplaceError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isMarketplaceError(error)) throw new Error(`expected a MarketplaceError, got ${String(error)}`);
  return error;
}

/** The SqliteError at the end of the cause chain. */
function driverCause(error: Error): unknown {
  let cause: unknown = error.cause;
  while (cause instanceof Error && cause.name !== "SqliteError") cause = cause.cause;
  return cause;
}

function expectInternal(error: MarketplaceError): void {
  expect(error.code).toBe("internal_error");
  expect(error.message).toBe("Internal server error");
  expect(error.message).not.toMatch(/SQL|INSERT|constraint|listings/i);
  expect(driverCause(error)).toMatchObject({ name: "SqliteError" });
}

describe("driver errors become MarketplaceErrors", () => {
  it("a duplicate email, in any case, is email_taken with the driver error as cause", async () => {
    const storage = await openMigrated();
    const { users } = storage.repositories;
    await users.insert(buildUser({ email: "dup@example.com", createdAt: NOW }));
    const error = await failure(users.insert(buildUser({ email: "DUP@Example.com", createdAt: NOW })));
    expect(error.code).toBe("email_taken");
    expect(error.message).toBe("Email already registered");
    expect(driverCause(error)).toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
    await storage.close();
  });

  it("a foreign-key violation is user_not_found (as on PostgreSQL) with the driver error as cause", async () => {
    const storage = await openMigrated();
    const orphan = buildListing({ createdAt: NOW }); // its user does not exist
    const error = await failure(storage.repositories.listings.insertWithinSlots(orphan, ROOM));
    expect(error).toMatchObject({ code: "user_not_found", message: "User not found" });
    expect(driverCause(error)).toMatchObject({ code: "SQLITE_CONSTRAINT_FOREIGNKEY" });
    expect(await storage.repositories.listings.findById(orphan.id)).toBeNull();
    await storage.close();
  });

  it("a write lock held past busy_timeout is service_unavailable, as a lost PostgreSQL connection is", () => {
    for (const code of ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_TIMEOUT"]) {
      const busy = Object.assign(new Error("database is locked"), { name: "SqliteError", code });
      const wrapped = new Error("Failed query: insert ...", { cause: busy });
      expect(toMarketplaceError(wrapped)).toMatchObject({ code: "service_unavailable", cause: wrapped });
    }
    const locked = Object.assign(new Error("database table is locked"), {
      name: "SqliteError",
      code: "SQLITE_LOCKED",
    });
    expect(toMarketplaceError(locked).code).toBe("internal_error");
  });

  it("CHECK violations (category, status) are internal_error", async () => {
    const storage = await openMigrated();
    const user = buildUser({ createdAt: NOW });
    await storage.repositories.users.insert(user);
    const badCategory = buildListing({ userId: user.id, category: "astrology" as Category, createdAt: NOW });
    expectInternal(await failure(storage.repositories.listings.insertWithinSlots(badCategory, ROOM)));
    const good = buildListing({ userId: user.id, createdAt: NOW });
    await storage.repositories.listings.insertWithinSlots(good, ROOM);
    const badStatus = storage.repositories.listings.update(good.id, { status: "expired" as "paused" }, ROOM);
    expectInternal(await failure(badStatus));
    expect((await storage.repositories.listings.findById(good.id))?.status).toBe("active");
    await storage.close();
  });

  it("a duplicate key digest or listing id is internal_error", async () => {
    const storage = await openMigrated();
    const user = buildUser({ createdAt: NOW });
    await storage.repositories.users.insert(user);
    const key = buildApiKey({ userId: user.id, createdAt: NOW });
    await storage.repositories.apiKeys.insert(key);
    const twin = { ...buildApiKey({ userId: user.id, createdAt: NOW }), keyHash: key.keyHash };
    expectInternal(await failure(storage.repositories.apiKeys.insert(twin)));
    const listing = buildListing({ userId: user.id, createdAt: NOW });
    await storage.repositories.listings.insertWithinSlots(listing, ROOM);
    expectInternal(await failure(storage.repositories.listings.insertWithinSlots(listing, ROOM)));
    await storage.close();
  });

  it("a closed database rejects instead of throwing synchronously", async () => {
    const storage = await openMigrated();
    await storage.close();
    const error = await failure(storage.repositories.users.findById("x"));
    expect(error).toMatchObject({ code: "internal_error", message: "Internal server error" });
    expect(error.cause).toBeInstanceOf(Error); // better-sqlite3's "database connection is not open"
    expect(await storage.ping()).toBe(false);
  });

  it("passes MarketplaceErrors through and wraps anything else", () => {
    const own = new MarketplaceError("forbidden");
    expect(toMarketplaceError(own)).toBe(own);
    const odd = toMarketplaceError("a string");
    expect(odd).toMatchObject({ code: "internal_error", cause: "a string" });
  });
});
