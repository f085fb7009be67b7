import { describe, expect, it } from "vitest";
import { JWT_TTL_SECONDS } from "../domain/limits.js";
import { createTestClock } from "../testing/fakes/clock.js";
import { createJwtTokenService, MIN_JWT_SECRET_BYTES } from "./jwt-token-service.js";

const claims = { sub: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", email: "a@b.co", isAdmin: false, version: 0 };

describe("createJwtTokenService", () => {
  it("refuses a secret shorter than 32 bytes at creation, naming the problem", () => {
    const clock = createTestClock();
    expect(() => createJwtTokenService("abc", clock)).toThrow(
      new RangeError("JWT secret must be at least 32 bytes (got 3)"),
    );
    expect(() => createJwtTokenService("", clock)).toThrow("JWT secret must be at least 32 bytes (got 0)");
    expect(() => createJwtTokenService("x".repeat(31), clock)).toThrow(RangeError);
  });

  it("counts UTF-8 bytes, not characters", () => {
    const clock = createTestClock();
    // 16 characters of 2 bytes each: 32 bytes.
    expect(() => createJwtTokenService("é".repeat(16), clock)).not.toThrow();
    expect(() => createJwtTokenService("é".repeat(15), clock)).toThrow("(got 30)");
  });

  it("refuses a secret that is not a string (a JavaScript caller's undefined)", () => {
    const create = createJwtTokenService as (
      secret: unknown,
      clock: ReturnType<typeof createTestClock>,
    ) => unknown;
    expect(() => create(undefined, createTestClock())).toThrow(new TypeError("JWT secret must be a string"));
  });

  it("issues and verifies with a secret of exactly the minimum length", async () => {
    const clock = createTestClock();
    const tokens = createJwtTokenService("s".repeat(MIN_JWT_SECRET_BYTES), clock);
    const token = await tokens.issue(claims);
    await expect(tokens.verify(token)).resolves.toEqual(claims);
    const other = createJwtTokenService("t".repeat(MIN_JWT_SECRET_BYTES), clock);
    await expect(other.verify(token)).resolves.toBeNull();
  });

  it("a token verified once still expires on time, and a token differing in one character is checked afresh", async () => {
    const clock = createTestClock();
    const tokens = createJwtTokenService("s".repeat(MIN_JWT_SECRET_BYTES), clock);
    const token = await tokens.issue(claims);
    await expect(tokens.verify(token)).resolves.toEqual(claims);
    const [head, body, signature = ""] = token.split(".");
    const forged = `${head}.${body}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BA" : "AA"}`;
    await expect(tokens.verify(forged)).resolves.toBeNull();
    await expect(tokens.verify(token)).resolves.toEqual(claims);
    // Valid until the second before exp (7 days), never after, however often it was verified.
    clock.advance(JWT_TTL_SECONDS * 1000 - 1000);
    await expect(tokens.verify(token)).resolves.toEqual(claims);
    clock.advance(1000);
    await expect(tokens.verify(token)).resolves.toBeNull();
  });

  it("a token is not valid before it was issued, even once verified", async () => {
    const clock = createTestClock();
    const tokens = createJwtTokenService("s".repeat(MIN_JWT_SECRET_BYTES), clock);
    const token = await tokens.issue(claims);
    await expect(tokens.verify(token)).resolves.toEqual(claims);
    clock.advance(-60_000);
    await expect(tokens.verify(token)).resolves.toBeNull();
  });
});
