import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useHarness } from "../support/harness.js";
import { call } from "../support/http.js";
import { runUntilExit } from "../support/server-process.js";

// decisions.md: invalid configuration stops the server at start with one clear
// line naming the variable. Each case is one bad variable on an otherwise good start.
const CASES: Array<[variable: string, value: string]> = [
  ["PORT", "abc"],
  ["DATABASE_URL", "mysql://x"],
  ["JWT_SECRET", "too-short"],
  ["LEGACY_PUBLIC_ENDPOINTS", "maybe"],
  ["LISTING_SLOTS", "personal:lots"],
  ["HOST", "not a host"],
  ["MAIL_FROM", "nobody"],
  ["CORS_ORIGINS", "https://app.example.com/path"],
  ["RATE_LIMIT", "sometimes"],
];

describe("invalid configuration", () => {
  const h = useHarness("file");
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await h.dataDir();
  });

  it.concurrent.each(CASES)("%s=%s stops the server with one line naming it", async (variable, value) => {
    const exit = await runUntilExit({ dataDir, env: { [variable]: value } });
    expect(exit.code, exit.stdout + exit.stderr).not.toBe(0);
    expect(exit.code).not.toBeNull();
    const lines = exit.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toEqual([expect.stringContaining(variable)]);
    expect(exit.stdout).not.toContain("listening");
  });
});

/** The one line a failed start printed, checked to name `variable` and not to leak `secret`. */
function expectOneLineNaming(
  exit: { code: number | null; stdout: string; stderr: string },
  variable: string,
) {
  expect(exit.code, exit.stdout + exit.stderr).not.toBe(0);
  expect(exit.code).not.toBeNull();
  const lines = exit.stderr.split("\n").filter((line) => line.trim() !== "");
  expect(lines).toEqual([expect.stringContaining(variable)]);
  expect(exit.stdout).not.toContain("listening");
}

// A mistake that only one variable can fix, found by trying it (or by looking
// at two variables together), names that variable too.
describe("start-up failures the environment causes", () => {
  const h = useHarness("file");
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await h.dataDir();
    await writeFile(join(dataDir, "a-file"), "not a folder\n");
  });

  const PASSWORD = "hunter2-not-for-logs";
  const cases: Array<[what: string, env: () => Record<string, string>, variable: string]> = [
    ["HOST=0.0.0.0 without PUBLIC_URL", () => ({ HOST: "0.0.0.0" }), "PUBLIC_URL"],
    ["HOST=:: without PUBLIC_URL", () => ({ HOST: "::" }), "PUBLIC_URL"],
    [
      "a PostgreSQL that refuses connections",
      () => ({ DATABASE_URL: `postgres://psm:${PASSWORD}@127.0.0.1:1/market` }),
      "DATABASE_URL",
    ],
    [
      "a PostgreSQL host that does not exist",
      () => ({ DATABASE_URL: `postgresql://psm:${PASSWORD}@db.psm-test.invalid:5432/market` }),
      "DATABASE_URL",
    ],
    [
      "a SQLite file that cannot be created",
      () => ({ DATABASE_URL: `sqlite:${join(dataDir, "a-file", "market.db")}` }),
      "DATABASE_URL",
    ],
    ["a DATA_DIR that cannot be a folder", () => ({ DATA_DIR: join(dataDir, "a-file", "data") }), "DATA_DIR"],
  ];

  it.concurrent.each(cases)("%s stops the server with one line naming it", async (_what, env, variable) => {
    const exit = await runUntilExit({ dataDir, env: env() });
    expectOneLineNaming(exit, variable);
    expect(exit.stdout + exit.stderr).not.toContain(PASSWORD);
  });

  it("a PORT already in use stops the server with one line naming it", async () => {
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, "127.0.0.1", done));
    const address = holder.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const exit = await runUntilExit({ dataDir, env: { PORT: String(port) } });
      expectOneLineNaming(exit, "PORT");
      expect(exit.stderr).toContain(`PORT ${port} is already in use`);
    } finally {
      await new Promise((done) => holder.close(done));
    }
  });

  it("RATE_LIMIT=0 is a switch like any other: the server starts with rate limiting off", async () => {
    const server = await h.server({ dataDir: await h.dataDir(), env: { RATE_LIMIT: "0" } });
    const reply = await call(server.url, "GET", "/api/capabilities");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("ratelimit-policy")).toBeNull();
  });
});
