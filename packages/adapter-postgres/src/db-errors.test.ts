import { isMarketplaceError, isUuid, type Listing, MarketplaceError } from "@psm/core";
import { buildApiKey, buildListing, buildUser, testId } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { causeCode } from "../test/sqlstate.js";
import { toMarketplaceError } from "./db-errors.js";
import { openPostgresStorage } from "./index.js";

/** The error `work` rejects with, which must be a MarketplaceError. */
async function failure(work: Promise<unknown>): Promise<MarketplaceError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof MarketplaceError))
    throw new Error(`expected a MarketplaceError, got ${String(error)}`);
  return error;
}

describe("toMarketplaceError", () => {
  it("maps driver errors by SQLSTATE and keeps them as cause", () => {
    const email = { code: "23505", constraint_name: "users_email_lower_idx", query: "insert into users" };
    expect(toMarketplaceError(email).code).toBe("email_taken");
    expect(toMarketplaceError(email).cause).toBe(email);
    expect(toMarketplaceError({ code: "23505", constraint_name: "api_keys_key_hash_idx" }).code).toBe(
      "internal_error",
    );
    expect(toMarketplaceError({ code: "23503" }).code).toBe("user_not_found");
    expect(toMarketplaceError({ code: "57P01" }).code).toBe("service_unavailable");
    expect(toMarketplaceError({ code: "ECONNREFUSED" }).code).toBe("service_unavailable");
    expect(toMarketplaceError(new Error("boom")).code).toBe("internal_error");
    // Drizzle wraps the driver error; the mapping looks through the wrapper.
    const wrapped = new Error("Failed query: insert ...", { cause: email });
    expect(toMarketplaceError(wrapped).code).toBe("email_taken");
    expect(toMarketplaceError(wrapped).message).toBe("Email already registered");
  });

  it("passes MarketplaceErrors through untouched", () => {
    const own = new MarketplaceError("invalid_input");
    expect(toMarketplaceError(own)).toBe(own);
  });

  it("core's isUuid, which keeps malformed ids from reaching PostgreSQL, takes uuids of any case only", () => {
    expect(isUuid("0190a3b4-5c6d-7e8f-9012-3456789abcde")).toBe(true);
    expect(isUuid("0190A3B4-5C6D-7E8F-9012-3456789ABCDE")).toBe(true);
    expect(isUuid("not-a-uuid")).toBe(false);
    expect(isUuid("0190a3b4-5c6d-7e8f-9012-3456789abcde' or 1=1")).toBe(false);
  });
});

describePostgres("postgres error translation", (ctx) => {
  it("a case variant of a stored email is email_taken, without SQL text", async () => {
    const { users } = ctx.storage().repositories;
    // Core lower-cases emails; the index folds as well, for rows written by other tools.
    await users.insert(buildUser({ email: "Mixed.Case@Example.com" }));
    const error = await failure(users.insert(buildUser({ email: "mixed.case@example.com" })));
    expect(error.code).toBe("email_taken");
    expect(error.message).toBe("Email already registered");
    expect(causeCode(error)).toBe("23505");
    expect((await users.findByEmail("MIXED.case@example.COM"))?.email).toBe("Mixed.Case@Example.com");
  });

  it("other unique and check violations are internal_error with the driver error as cause", async () => {
    const { users, apiKeys, listings } = ctx.storage().repositories;
    const user = buildUser();
    await users.insert(user);
    const duplicateId = await failure(users.insert({ ...buildUser(), id: user.id }));
    expect(duplicateId.code).toBe("internal_error");
    expect(duplicateId.message).toBe("Internal server error");

    const key = buildApiKey({ userId: user.id });
    await apiKeys.insert(key);
    const collision = await failure(apiKeys.insert(buildApiKey({ userId: user.id, keyHash: key.keyHash })));
    expect(collision.code).toBe("internal_error");
    expect(causeCode(collision)).toBe("23505");
    expect(collision.message).not.toMatch(/insert|api_keys|key_hash/i);

    const badCategory = { ...buildListing({ userId: user.id }), category: "gardening" } as unknown as Listing;
    const check = await failure(listings.insertWithinSlots(badCategory, { maxSlots: 5, now: new Date() }));
    expect(check.code).toBe("internal_error");
    expect(causeCode(check)).toBe("23514");
    expect(check.message).not.toMatch(/listings|category|check/i);
  });

  it("a row for a missing user is user_not_found (foreign key)", async () => {
    const { listings, apiKeys, mailQueue } = ctx.storage().repositories;
    const orphan = buildListing();
    const error = await failure(listings.insertWithinSlots(orphan, { maxSlots: 5, now: new Date() }));
    expect(error.code).toBe("user_not_found");
    expect(causeCode(error)).toBe("23503");
    expect((await failure(apiKeys.insert(buildApiKey()))).code).toBe("user_not_found");
    const job = {
      id: testId(),
      userId: testId(),
      kind: "password_reset" as const,
      createdAt: new Date(),
    };
    expect((await failure(mailQueue.enqueue(job))).code).toBe("user_not_found");
  });

  it("the database refuses a stored status of expired", async () => {
    const { sql } = ctx.connection();
    const user = buildUser();
    await ctx.storage().repositories.users.insert(user);
    const attempt = sql`insert into listings (id, user_id, title, title_folded, description, category,
      condition, images, status, created_at) values (${buildUser().id}, ${user.id}, 't', 't', 'd',
      'cybersecurity', 'new', '[]', 'expired', now())`;
    await expect(attempt).rejects.toMatchObject({ code: "23514", constraint_name: "listings_status_check" });
  });

  it("malformed ids read as missing instead of failing", async () => {
    const repos = ctx.storage().repositories;
    const bad = "not-a-uuid";
    const now = new Date();
    expect(await repos.listings.findById(bad)).toBeNull();
    expect(await repos.listings.update(bad, { title: "x" }, { maxSlots: 1, now })).toBeNull();
    expect(await repos.listings.update(bad, { status: "active" }, { maxSlots: 1, now })).toBeNull();
    expect(await repos.listings.delete(bad)).toBe(false);
    expect(await repos.listings.incrementViews(bad)).toBe(false);
    expect(await repos.listings.countActiveByUser(bad, now)).toBe(0);
    expect((await repos.listings.countActiveByUsers([bad], now)).size).toBe(0);
    expect(await repos.listings.search({ limit: 5, status: "all", userId: bad }, now)).toEqual([]);
    expect(await repos.users.findById(bad)).toBeNull();
    expect(await repos.users.updateProfile(bad, { displayName: "x" })).toBeNull();
    expect(await repos.users.setPasswordHash(bad, "h", { revokeTokens: true })).toBe(false);
    expect(await repos.users.deleteCascade(bad)).toBe(false);
    expect(await repos.apiKeys.findById(bad)).toBeNull();
    expect(await repos.apiKeys.deactivate(bad)).toBe(false);
    expect(await repos.apiKeys.list(bad, { limit: 5 })).toEqual([]);
    expect(await repos.messages.list(bad, "received", { limit: 5 })).toEqual([]);
    expect(await repos.mailQueue.findById(bad)).toBeNull();
    expect(await repos.mailQueue.countSince(bad, "password_reset", now)).toBe(0);
    await repos.resetTokens.deleteByUser(bad);
  });

  it("a malformed cursor is invalid_input, not a driver error", async () => {
    const repos = ctx.storage().repositories;
    const error = await failure(repos.listings.listAll({ limit: 5, before: "zzz" }));
    expect(isMarketplaceError(error, "invalid_input")).toBe(true);
  });

  it("an unreachable server is service_unavailable, and ping answers false", async () => {
    // Port 1 on loopback refuses at once.
    const storage = openPostgresStorage({ url: "postgres://postgres@127.0.0.1:1/none" });
    try {
      expect(await storage.ping()).toBe(false);
      const error = await failure(storage.repositories.users.findById(buildUser().id));
      expect(error.code).toBe("service_unavailable");
    } finally {
      await storage.close();
    }
  });
});
