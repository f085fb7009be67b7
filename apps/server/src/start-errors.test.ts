import { describe, expect, it } from "vitest";
import { ConfigError } from "./config.js";
import { databaseError, dataDirError, describeCause, listenError, redactUrl } from "./start-errors.js";

const PG = { kind: "postgres" as const, url: "postgres://app:s3cr%40t@db.internal:5432/market" };

describe("start-up errors", () => {
  it("redacts the password of a URL", () => {
    expect(redactUrl(PG.url)).toBe("postgres://app:***@db.internal:5432/market");
    expect(redactUrl("postgres://db.internal/market")).toBe("postgres://db.internal/market");
    expect(redactUrl("postgres://app@db.internal/market")).toBe("postgres://app@db.internal/market");
  });

  it("names DATABASE_URL for an unreachable PostgreSQL, without the password even when the driver quotes it", () => {
    const driver = Object.assign(new Error(`connect to ${PG.url} failed: password s3cr@t rejected`), {
      code: "ECONNREFUSED",
    });
    const error = databaseError({ database: PG, dataDir: "/data" }, driver);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      "Failed to start: the database at DATABASE_URL (postgres://app:***@db.internal:5432/market) could not be opened: connect to postgres://app:***@db.internal:5432/market failed: password *** rejected",
    );
    expect(error.message).not.toMatch(/s3cr/);
  });

  it("names DATA_DIR for the default SQLite file and DATABASE_URL for a chosen one", () => {
    const cause = new Error("SQLITE_CANTOPEN: unable to open database file");
    expect(
      databaseError({ database: { kind: "sqlite", file: "/data/marketplace.db" }, dataDir: "/data" }, cause)
        .message,
    ).toBe(
      "Failed to start: the SQLite database /data/marketplace.db (from DATA_DIR) could not be opened: SQLITE_CANTOPEN: unable to open database file",
    );
    expect(
      databaseError({ database: { kind: "sqlite", file: "/srv/x.db" }, dataDir: "/data" }, cause).message,
    ).toContain("(from DATABASE_URL)");
  });

  it("describes the innermost cause on one line, and an AggregateError by its parts", () => {
    const wrapped = new Error("Failed query: select 1\nparams: ", { cause: new Error("connection\nreset") });
    expect(describeCause(wrapped)).toBe("connection reset");
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: "ECONNREFUSED" });
    expect(describeCause(new AggregateError([refused("::1:5432"), refused("127.0.0.1:5432")]))).toBe(
      "connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432",
    );
    expect(describeCause(Object.assign(new Error(""), { code: "ETIMEDOUT" }))).toBe("ETIMEDOUT");
    expect(describeCause("plain")).toBe("plain");
  });

  it("names PORT or HOST for a failed listen", () => {
    const config = { host: "127.0.0.1", port: 3000 };
    const err = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
    expect(listenError(config, err("EADDRINUSE")).message).toBe(
      "Failed to start: PORT 3000 is already in use (listen EADDRINUSE)",
    );
    expect(listenError(config, err("EACCES")).message).toMatch(/^Failed to start: PORT 3000 /);
    expect(listenError({ ...config, host: "10.9.9.9" }, err("EADDRNOTAVAIL")).message).toBe(
      "Failed to start: cannot listen on HOST 10.9.9.9 (listen EADDRNOTAVAIL)",
    );
  });

  it("names DATA_DIR when it cannot be used", () => {
    expect(
      dataDirError({ dataDir: "/ro" }, new Error("EACCES: permission denied, mkdir '/ro'")).message,
    ).toBe("Failed to start: DATA_DIR /ro is not usable: EACCES: permission denied, mkdir '/ro'");
  });
});
