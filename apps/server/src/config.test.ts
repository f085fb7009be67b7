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
    expect(config.mcpReadOnly).toBe(false);
    expect(config.answerCacheMs).toBe(1000);
    expect(config.mailFrom).toBe("Marketplace <no-reply@localhost>");
    expect(config.metricsToken).toBeUndefined();
    expect([config.pgPoolMax, config.pgSearchPoolMax]).toEqual([10, 5]);
    // The search pool follows PG_POOL_MAX unless set.
    expect(readConfig({ PG_POOL_MAX: "3" }).pgSearchPoolMax).toBe(2);
    expect(readConfig({ PG_POOL_MAX: "3", PG_SEARCH_POOL_MAX: "7" }).pgSearchPoolMax).toBe(7);
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

  it("reads ANSWER_CACHE_MS, 0 turning the cache off", () => {
    expect(readConfig({ ANSWER_CACHE_MS: "0" }).answerCacheMs).toBe(0);
    expect(readConfig({ ANSWER_CACHE_MS: "5000" }).answerCacheMs).toBe(5000);
  });

  it("reads METRICS_TOKEN, and refuses a weak one without echoing it", () => {
    expect(readConfig({ METRICS_TOKEN: " scrape-0123456789abcdef " }).metricsToken).toBe(
      "scrape-0123456789abcdef",
    );
    expect(readConfig({ METRICS_TOKEN: "" }).metricsToken).toBeUndefined();
    // The whole line is fixed but for a length: the value is never in it.
    const refusal =
      /^Invalid configuration: METRICS_TOKEN must be 16 to 1024 visible ASCII characters \(got \d+ characters\)$/;
    for (const weak of ["hunter2hunter2", "has a space 0123456789", "naïve-0123456789abcdef"]) {
      expect(() => readConfig({ METRICS_TOKEN: weak })).toThrowError(refusal);
    }
  });

  it("reads the webhook settings: private addresses refused and decisions.md's schedule by default", () => {
    expect(readConfig({}).webhooks).toEqual({
      allowPrivate: false,
      retrySchedule: [5, 300, 1800, 7200, 18000, 36000, 86400],
    });
    expect(
      readConfig({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: " 1, 2,3 " }).webhooks,
    ).toEqual({
      allowPrivate: true,
      retrySchedule: [1, 2, 3],
    });
    for (const bad of ["5,,300", "0", "5,1e3", "-1", "604801", "1.5", Array(21).fill("1").join(",")]) {
      expect(() => readConfig({ WEBHOOK_RETRY_SCHEDULE: bad }), bad).toThrowError(
        /^Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated whole numbers/,
      );
    }
  });

  it("reads CURRENCY as an ISO 4217 code (USD by default) and OTEL_EXPORTER_OTLP_ENDPOINT as an http(s) URL", () => {
    expect(readConfig({}).currency).toBe("USD");
    expect(readConfig({ CURRENCY: "eur" }).currency).toBe("EUR");
    expect(() => readConfig({ CURRENCY: "EURO" })).toThrow(
      /^Invalid configuration: CURRENCY must be an ISO 4217 code/,
    );
    expect(() => readConfig({ CURRENCY: "XYZ" })).toThrow(/CURRENCY must be an ISO 4217 code/);
    expect(readConfig({}).otelEndpoint).toBeUndefined();
    expect(readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }).otelEndpoint).toBe(
      "http://127.0.0.1:4318",
    );
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
    );
  });

  it("reads OAUTH (on by default) and CLIENT_METADATA_ALLOW_PRIVATE (off by default)", () => {
    expect(readConfig({}).oauth).toEqual({ enabled: true, allowPrivateClients: false });
    expect(readConfig({ OAUTH: "off", CLIENT_METADATA_ALLOW_PRIVATE: "true" }).oauth).toEqual({
      enabled: false,
      allowPrivateClients: true,
    });
    expect(() => readConfig({ OAUTH: "maybe" })).toThrow(/OAUTH/);
  });

  it("reads MCP_READ_ONLY", () => {
    expect(readConfig({ MCP_READ_ONLY: "true" }).mcpReadOnly).toBe(true);
    expect(readConfig({ MCP_READ_ONLY: "off" }).mcpReadOnly).toBe(false);
  });

  it("reads MCP_ANONYMOUS (on by default, as in 1.2)", () => {
    expect(readConfig({}).mcpAnonymous).toBe(true);
    expect(readConfig({ MCP_ANONYMOUS: "false" }).mcpAnonymous).toBe(false);
  });

  it.each(["RATE_LIMIT", "LEGACY_PUBLIC_ENDPOINTS", "REQUIRE_VERIFIED_EMAIL", "MCP_READ_ONLY"])(
    "%s takes the same spellings as every other switch",
    (name) => {
      const read = (value: string) => {
        const config = readConfig({ [name]: value });
        return {
          RATE_LIMIT: config.rateLimit,
          LEGACY_PUBLIC_ENDPOINTS: config.legacyPublicEndpoints,
          REQUIRE_VERIFIED_EMAIL: config.requireVerifiedEmail,
          MCP_READ_ONLY: config.mcpReadOnly,
        }[name];
      };
      for (const on of ["true", "1", "yes", "on", "TRUE", " On "]) expect(read(on), on).toBe(true);
      for (const off of ["false", "0", "no", "off", "False", "OFF"]) expect(read(off), off).toBe(false);
      expect(() => read("enabled")).toThrowError(
        `Invalid configuration: ${name} must be true or false (or 1/0, yes/no, on/off)`,
      );
    },
  );

  it("accepts IP addresses and host names for HOST, and derives PUBLIC_URL from them", () => {
    expect(readConfig({ HOST: "localhost", PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(readConfig({ HOST: "::1" }).publicUrl).toBe("http://[::1]:3000");
    expect(readConfig({ HOST: "10.1.2.3" }).host).toBe("10.1.2.3");
    expect(readConfig({ HOST: "market.internal." }).host).toBe("market.internal.");
  });

  it("binds a wildcard HOST when PUBLIC_URL says where users reach the server", () => {
    const config = readConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://market.example.com/" });
    expect(config.host).toBe("0.0.0.0");
    expect(config.publicUrl).toBe("https://market.example.com");
    expect(() => readConfig({ HOST: "::" })).toThrowError(
      /^Invalid configuration: PUBLIC_URL is required when HOST is ::/,
    );
  });

  it("reads CORS_ORIGINS as * or origins, normalised as browsers send them", () => {
    expect(readConfig({ CORS_ORIGINS: "*" }).corsOrigins).toBe("*");
    expect(readConfig({ CORS_ORIGINS: " " }).corsOrigins).toBe("*");
    expect(
      readConfig({
        CORS_ORIGINS: "https://App.Example.com:443, http://localhost:5173,chrome-extension://abc",
      }).corsOrigins,
    ).toEqual(["https://app.example.com", "http://localhost:5173", "chrome-extension://abc"]);
    expect(() => readConfig({ CORS_ORIGINS: "https://a.example/" })).toThrowError(
      'Invalid configuration: CORS_ORIGINS must be * or origins like https://app.example.com[:port], without path or trailing slash (got "https://a.example/")',
    );
  });

  it("checks MAIL_FROM as the mailers will", () => {
    expect(readConfig({ MAIL_FROM: "Team <team@example.com>" }).mailFrom).toBe("Team <team@example.com>");
    expect(readConfig({ MAIL_FROM: "team@example.com" }).mailFrom).toBe("team@example.com");
  });

  it("keeps a postgres DATABASE_URL it cannot judge for the start to try, and never echoes one it refuses", () => {
    expect(readConfig({ DATABASE_URL: "postgres://u:p@h1:5432,h2:5432/db" }).database.kind).toBe("postgres");
    expect(() => readConfig({ DATABASE_URL: "mysql://user:hunter2@h/db" })).toThrowError(
      /^(?!.*hunter2)Invalid configuration: DATABASE_URL /,
    );
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
    [{ PG_SEARCH_POOL_MAX: "0" }, "PG_SEARCH_POOL_MAX"],
    [{ RATE_LIMIT: "maybe" }, "RATE_LIMIT"],
    [{ RATE_LIMIT_STORE: "mongo" }, "RATE_LIMIT_STORE"],
    [{ LEGACY_PUBLIC_ENDPOINTS: "perhaps" }, "LEGACY_PUBLIC_ENDPOINTS"],
    [{ REQUIRE_VERIFIED_EMAIL: "perhaps" }, "REQUIRE_VERIFIED_EMAIL"],
    [{ MCP_READ_ONLY: "perhaps" }, "MCP_READ_ONLY"],
    [{ ANSWER_CACHE_MS: "5001" }, "ANSWER_CACHE_MS"],
    [{ ANSWER_CACHE_MS: "-1" }, "ANSWER_CACHE_MS"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ PUBLIC_URL: "ftp://x" }, "PUBLIC_URL"],
    [{ DOCUMENT_AI_URL: "https://ai.example" }, "DOCUMENT_AI_KEY"],
    [{ HOST: "not a host" }, "HOST"],
    [{ HOST: "[::1]" }, "HOST"],
    [{ HOST: "localhost:3000" }, "HOST"],
    [{ HOST: "127.1" }, "HOST"],
    [{ HOST: "0.0.0.0" }, "PUBLIC_URL"],
    [{ HOST: "::" }, "PUBLIC_URL"],
    [{ HOST: "0:0:0:0:0:0:0:0" }, "PUBLIC_URL"],
    [{ MAIL_FROM: "not an address" }, "MAIL_FROM"],
    [{ MAIL_FROM: "a@b.co, c@d.co" }, "MAIL_FROM"],
    [{ CORS_ORIGINS: "anything" }, "CORS_ORIGINS"],
    [{ CORS_ORIGINS: "https://a.example/" }, "CORS_ORIGINS"],
    [{ CORS_ORIGINS: "https://a.example/app" }, "CORS_ORIGINS"],
    [{ CORS_ORIGINS: "https://a.example, a.example" }, "CORS_ORIGINS"],
    [{ CORS_ORIGINS: "*, https://a.example" }, "CORS_ORIGINS"],
    [{ CORS_ORIGINS: "https://user@a.example" }, "CORS_ORIGINS"],
    [{ PUBLIC_URL: "https://x.example/?a=1" }, "PUBLIC_URL"],
    [{ RATE_LIMIT: "2" }, "RATE_LIMIT"],
    [{ METRICS_TOKEN: "short" }, "METRICS_TOKEN"],
  ])("refuses %o naming %s", (env, variable) => {
    expect(() => readConfig(env)).toThrowError(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
