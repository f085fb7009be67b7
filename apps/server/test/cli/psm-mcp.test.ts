import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, signUpAndLogIn } from "../support/accounts.js";
import { connectStdio, failedTool, okTool, PSM_MCP } from "../support/mcp-client.js";
import { startServer, stopServer } from "../support/server-process.js";
import { lines, runCli, tempDirs } from "./run-cli.js";

// The `psm-mcp` command as an MCP client starts it: from a folder of its own,
// not the repository's. (test/mcp/mcp.test.ts drives it beside a running
// server on both backends; this file is about the command itself.)
const dirs = tempDirs();
afterAll(() => dirs.cleanup());
const mcp = (args: string[], env: Record<string, string>, cwd: string) => runCli(args, env, cwd, PSM_MCP);

describe("psm-mcp --help and --version", () => {
  it("--help says what it serves and names its variables, exit 0, touching nothing", async () => {
    const cwd = await dirs.make();
    const run = await mcp(["--help"], {}, cwd);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    for (const variable of ["PSM_API_KEY", "DATA_DIR", "DATABASE_URL", "MCP_READ_ONLY"]) {
      expect(run.stdout).toContain(variable);
    }
    expect(await readdir(cwd)).toEqual([]);
  });

  it("--version prints the server's one version; an unknown argument is exit 2", async () => {
    const cwd = await dirs.make();
    const version = await runCli(["--version"], {}, cwd);
    expect(await mcp(["--version"], {}, cwd)).toEqual({ code: 0, stdout: version.stdout, stderr: "" });
    const unknown = await mcp(["--stdio"], {}, cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unexpected argument "--stdio"');
  });
});

describe("psm-mcp without a database to open", () => {
  it("DATA_DIR unset, in another folder: one line naming DATA_DIR and the path, exit 2, nothing created", async () => {
    const cwd = await dirs.make();
    const run = await mcp([], { PSM_API_KEY: `psm_${"0".repeat(64)}` }, cwd);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(lines(run.stderr)).toEqual([
      `Invalid configuration: no database at ${join(cwd, "data", "marketplace.db")} (DATA_DIR is unset, so ./data in the folder psm-mcp started in); set DATA_DIR to the server's data folder or DATABASE_URL to its database (psm-mcp never creates one)`,
    ]);
    expect(await readdir(cwd)).toEqual([]);
  });

  it.each([
    ["DATA_DIR", (dir: string) => ({ DATA_DIR: join(dir, "elsewhere") })],
    ["DATABASE_URL", (dir: string) => ({ DATABASE_URL: `sqlite:${join(dir, "elsewhere", "m.db")}` })],
  ])("a %s that names no database: the line names it, and no file or folder appears", async (name, env) => {
    const cwd = await dirs.make();
    const run = await mcp([], { PSM_API_KEY: `psm_${"0".repeat(64)}`, ...env(cwd) }, cwd);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringContaining(`(from ${name})`)]);
    expect(run.stderr).toContain(join(cwd, "elsewhere"));
    expect(await readdir(cwd)).toEqual([]);
  });

  it("without PSM_API_KEY says it is required, exit 2", async () => {
    const cwd = await dirs.make();
    const run = await mcp([], {}, cwd);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringContaining("PSM_API_KEY is required")]);
  });
});

describe("psm-mcp on a server's database, started from another folder", () => {
  let dataDir = "";
  let key = "";
  let userId = "";
  const clients: Client[] = [];
  beforeAll(async () => {
    // A real installation: the server migrates its database; a user signs up and makes a key over the API.
    dataDir = await dirs.make();
    const server = await startServer({ dataDir });
    try {
      const session = await signUpAndLogIn(server.url, "agent@example.com", "correct horse");
      userId = session.id;
      key = (await createKey(server.url, { token: session.token }, "desktop")).key;
    } finally {
      await stopServer(server);
    }
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
  });

  it("the SDK's client lists the tools and calls them as the key's user; the folder stays empty", async () => {
    const cwd = await dirs.make();
    const { client } = await connectStdio({ DATA_DIR: dataDir, PSM_API_KEY: key }, cwd);
    clients.push(client);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["whoami", "search_listings", "create_listing"]));
    expect((await okTool(client, "whoami")).user?.id).toBe(userId);
    const created = await okTool(client, "create_listing", {
      title: "Data audit",
      description: "Two weeks of work.",
      category: "data-analytics",
    });
    expect((await okTool(client, "search_listings", { user_id: userId })).count).toBe(1);
    expect(created.listing?.user_id).toBe(userId);
    await failedTool(
      client,
      "get_listing",
      { id: "0190a3b4-5c6d-7e8f-9012-3456789abcde" },
      "listing_not_found",
    );
    expect(await readdir(cwd)).toEqual([]);
  });

  it("a key that is not active stops it with one line, exit 2", async () => {
    const cwd = await dirs.make();
    const run = await mcp([], { DATA_DIR: dataDir, PSM_API_KEY: `psm_${"0".repeat(64)}` }, cwd);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringContaining("PSM_API_KEY is not an active API key")]);
  });
});

// mcp-bin.ts checks the Node.js version before loading anything that needs 24.7 (on Node.js 20 the
// server's modules fail with a SyntaxError about argon2).
describe("psm-mcp on an older Node.js", () => {
  const OLD_NODE = process.env.PSM_OLD_NODE ?? "/usr/bin/node";
  const oldVersion = existsSync(OLD_NODE)
    ? spawnSync(OLD_NODE, ["--version"], { encoding: "utf8" }).stdout.trim()
    : "";
  const oldMajor = Number(/^v(\d+)\./.exec(oldVersion)?.[1] ?? "0");

  it.skipIf(oldMajor < 14 || oldMajor >= 24).each([["--help"], ["--version"], []])(
    `%s says which Node.js it needs, exit 1 (skipped without a Node.js 14 to 23 at ${OLD_NODE}; set PSM_OLD_NODE)`,
    async (...args: string[]) => {
      const cwd = await dirs.make();
      const run = spawnSync(OLD_NODE, [PSM_MCP, ...args], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PSM_API_KEY: "psm_x" },
        cwd,
        timeout: 10_000,
      });
      expect(run.status, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `psm-mcp needs Node.js 24.7 or later (this is ${oldVersion.replace(/^v/, "")})\n`,
      );
      expect(await readdir(cwd)).toEqual([]);
    },
  );
});
