import { describe, expect, it } from "vitest";
import { readConfig } from "./config.js";

describe("readConfig", () => {
  it("gives the documented defaults", () => {
    const config = readConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.database).toEqual({
      kind: "sqlite",
      file: expect.stringMatching(/data\/marketplace\.db$/),
    });
    expect(config.publicUrl).toBe("http://127.0.0.1:3000");
    expect(config.slots).toEqual({ personal: 5, business: 50, admin: 1000 });
    expect(config.corsOrigins).toBe("*");
    expect(config.rateLimit).toBe(true);
    expect(config.legacyPublicEndpoints).toBe(false);
    expect(config.requireVerifiedEmail).toBe(false);
    expect(config.mailFrom).toBe("Marketplace <no-reply@localhost>");
  });

  it("reads every database URL form", () => {
    expect(readConfig({ DATABASE_URL: "postgres://u@h:5432/db" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u@h:5432/db",
    });
    expect(readConfig({ DATABASE_URL: "postgresql://h/db" }).database.kind).toBe("postgres");
    expect(readConfig({ DATABASE_URL: "sqlite:/tmp/x.db" }).database).toEqual({
      kind: "sqlite",
      file: "/tmp/x.db",
    });
    expect(readConfig({ DATABASE_URL: "file:/tmp/y.db" }).database).toEqual({
      kind: "sqlite",
      file: "/tmp/y.db",
    });
  });

  it("parses slots, CORS origins and legacy mode", () => {
    const config = readConfig({
      LISTING_SLOTS: "personal:2,business:9",
      CORS_ORIGINS: "https://a.example, https://b.example",
      LEGACY_PUBLIC_ENDPOINTS: "true",
      RATE_LIMIT: "off",
    });
    expect(config.slots).toEqual({ personal: 2, business: 9, admin: 1000 });
    expect(config.corsOrigins).toEqual(["https://a.example", "https://b.example"]);
    expect(config.legacyPublicEndpoints).toBe(true);
    expect(config.rateLimit).toBe(false);
  });

  it("reads REQUIRE_VERIFIED_EMAIL", () => {
    expect(readConfig({ REQUIRE_VERIFIED_EMAIL: "true" }).requireVerifiedEmail).toBe(true);
    expect(readConfig({ REQUIRE_VERIFIED_EMAIL: "false" }).requireVerifiedEmail).toBe(false);
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ JWT_SECRET: "short" }, "JWT_SECRET"],
    [{ NODE_ENV: "production" }, "JWT_SECRET"],
    [{ ADMIN_EMAIL: "a@b.co" }, "ADMIN_PASSWORD"],
    [{ ADMIN_PASSWORD: "secret123" }, "ADMIN_EMAIL"],
    [{ ADMIN_EMAIL: "nope", ADMIN_PASSWORD: "secret123" }, "ADMIN_EMAIL"],
    [{ SMTP_URL: "http://mail" }, "SMTP_URL"],
    [{ LISTING_SLOTS: "gold:3" }, "LISTING_SLOTS"],
    [{ PG_POOL_MAX: "0" }, "PG_POOL_MAX"],
    [{ RATE_LIMIT: "maybe" }, "RATE_LIMIT"],
    [{ RATE_LIMIT_STORE: "mongo" }, "RATE_LIMIT_STORE"],
    [{ LEGACY_PUBLIC_ENDPOINTS: "perhaps" }, "LEGACY_PUBLIC_ENDPOINTS"],
    [{ REQUIRE_VERIFIED_EMAIL: "perhaps" }, "REQUIRE_VERIFIED_EMAIL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ PUBLIC_URL: "ftp://x" }, "PUBLIC_URL"],
    [{ DOCUMENT_AI_URL: "https://ai.example" }, "DOCUMENT_AI_KEY"],
  ])("refuses %o naming %s", (env, variable) => {
    expect(() => readConfig(env)).toThrowError(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
