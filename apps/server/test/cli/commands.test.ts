import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { API_VERSION } from "@psm/adapter-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_DIR } from "../support/paths.js";
import { lines, runCli, tempDirs } from "./run-cli.js";

// The commands that only talk: help, version, refusals of a bad command line,
// and check-config, which reads the environment as the server does and writes nothing.
const dirs = tempDirs();
let cwd = "";
beforeAll(async () => {
  cwd = await dirs.make();
});
afterAll(() => dirs.cleanup());

const COMMANDS = ["serve", "migrate", "backup PATH", "check-config", "seed-demo"];

describe("psm-server --help", () => {
  it.each(["--help", "-h"])(
    "%s prints the commands and where the variables are described, exit 0",
    async (flag) => {
      const run = await runCli([flag], {}, cwd);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe("");
      for (const command of COMMANDS) expect(run.stdout).toContain(command);
      expect(run.stdout).toMatch(/DATA_DIR/);
      expect(run.stdout).toMatch(/DATABASE_URL/);
      expect(run.stdout).toContain('README.md, section "Configuration"');
    },
  );

  it("wins over a command, which then does nothing", async () => {
    const run = await runCli(["backup", "--help"], {}, cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: psm-server");
  });
});

describe("psm-server --version", () => {
  it.each(["--version", "-v"])(
    "%s prints the one version of the server, its packages and the API",
    async (flag) => {
      const pkg = JSON.parse(await readFile(join(APP_DIR, "package.json"), "utf8")) as { version: string };
      const run = await runCli([flag], {}, cwd);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`${pkg.version}\n`);
      expect(run.stdout.trim()).toBe(API_VERSION);
    },
  );
});

describe("a command line psm-server does not know", () => {
  it.each([
    [["frobnicate"], "frobnicate"],
    [["--frobnicate"], "--frobnicate"],
    [["migrate", "now"], "now"],
    [["backup"], "backup"],
    [["backup", "a.db", "b.db"], "backup"],
  ])("%j: usage on stderr, nothing on stdout, exit 2", async (args, named) => {
    const run = await runCli(args, { DATA_DIR: join(cwd, "data") }, cwd);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(named);
    expect(run.stderr).toContain("Usage: psm-server");
    expect(await readdir(cwd)).toEqual([]);
  });
});

describe("psm-server check-config", () => {
  it("says OK in one line with the storage and the public URL, and creates nothing", async () => {
    const run = await runCli(["check-config"], { PUBLIC_URL: "https://market.example.com" }, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual([
      `OK: storage sqlite (${join(cwd, "data", "marketplace.db")}), public URL https://market.example.com`,
    ]);
    expect(run.stderr).toBe("");
    expect(await readdir(cwd)).toEqual([]);
  });

  it("names PostgreSQL without printing its URL, and no other secret either", async () => {
    const secrets = [
      "pg-password-not-for-eyes",
      "jwt-secret-not-for-eyes-0123456789abcdef",
      "admin-pw-not-for-eyes",
    ];
    const run = await runCli(
      ["check-config"],
      {
        DATABASE_URL: `postgres://psm:${secrets[0]}@db.example.invalid:5432/market`,
        JWT_SECRET: secrets[1] as string,
        ADMIN_EMAIL: "admin@example.com",
        ADMIN_PASSWORD: secrets[2] as string,
      },
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual([
      expect.stringMatching(/^OK: storage postgres .*public URL http:\/\/127\.0\.0\.1:3000$/),
    ]);
    for (const secret of secrets) expect(run.stdout + run.stderr).not.toContain(secret);
    expect(run.stdout).not.toContain("db.example.invalid");
  });

  it.each([
    ["PORT", "notaport"],
    ["DATABASE_URL", "mysql://x"],
    ["JWT_SECRET", "short-secret-value"],
    ["LOG_LEVEL", "loud"],
  ])(
    "%s=%s: one line naming the variable, without its value when secret, exit 2",
    async (variable, value) => {
      const run = await runCli(["check-config"], { DATA_DIR: join(cwd, "data"), [variable]: value }, cwd);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(lines(run.stderr)).toEqual([expect.stringContaining(variable)]);
      if (variable === "JWT_SECRET") expect(run.stderr).not.toContain(value);
    },
  );
});

// bin.ts checks the Node.js version before it loads the CLI: no command, not
// even --help, gets past it (an answer from old Node would promise a server that cannot start).
describe("every command on an older Node.js", () => {
  // Debian's packaged node, older than 24 on the machines this suite runs on (as in e2e/start.test.ts).
  const OLD_NODE = process.env.PSM_OLD_NODE ?? "/usr/bin/node";
  const oldVersion = existsSync(OLD_NODE)
    ? spawnSync(OLD_NODE, ["--version"], { encoding: "utf8" }).stdout.trim()
    : "";
  const oldMajor = Number(/^v(\d+)\./.exec(oldVersion)?.[1] ?? "0");

  it.skipIf(oldMajor < 14 || oldMajor >= 24).each([["--help"], ["--version"], ["check-config"], ["migrate"]])(
    `%s says which Node.js it needs, exit 1 (skipped without a Node.js 14 to 23 at ${OLD_NODE}; set PSM_OLD_NODE)`,
    async (command) => {
      const run = spawnSync(OLD_NODE, [join(APP_DIR, "bin/psm-server.js"), command], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: join(cwd, "data") },
        cwd,
        timeout: 10_000,
      });
      expect(run.status, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^psm-server needs Node\.js 24\.7 or later/);
      expect(await readdir(cwd)).toEqual([]);
    },
  );
});
