import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useHarness } from "../support/harness.js";
import { call } from "../support/http.js";
import { APP_DIR, REPO_ROOT } from "../support/paths.js";
import { captureOutput, freePort } from "../support/server-process.js";

const BIN = join(APP_DIR, "bin/psm-server.js");
const READY_WITHIN_MS = 30_000; // decisions.md: `pnpm start` serves within 30 s

/** Polls GET /api/capabilities until it answers 200, `deadline` (epoch ms) passes, or the process is gone. */
async function waitForCapabilities(
  base: string,
  deadline: number,
  gone: () => boolean,
): Promise<number | "timeout" | "exited"> {
  while (Date.now() < deadline) {
    if (gone()) return "exited";
    const status = await call(base, "GET", "/api/capabilities").then(
      (reply) => reply.status,
      () => 0, // not listening yet
    );
    if (status === 200) return status;
    await new Promise((done) => setTimeout(done, 200));
  }
  return "timeout";
}

// The root `start` script run as pnpm runs it (sh, node_modules/.bin on PATH):
// build, then serve. Only readiness is asserted, within the documented bound.
describe("pnpm start", () => {
  const h = useHarness("file");
  let dataDir = "";
  let stop: (() => Promise<number | null>) | undefined;
  beforeAll(async () => {
    dataDir = await h.dataDir();
  });
  afterAll(async () => {
    await stop?.();
  });

  it("answers GET /api/capabilities 200 within 30 s of spawn, drains on SIGTERM, and leaves its compiled code for the next start", async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: { start: string };
    };
    const port = await freePort();
    const spawnedAt = Date.now();
    const child = spawn("sh", ["-c", manifest.scripts.start], {
      cwd: REPO_ROOT,
      detached: true, // its own process group, so the signal reaches the server behind sh
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: [join(REPO_ROOT, "node_modules/.bin"), process.env.PATH ?? ""].join(delimiter),
        HOME: process.env.HOME ?? "",
        PORT: String(port),
        DATA_DIR: dataDir,
        RATE_LIMIT: "off",
        // Where os.tmpdir() points: the compile cache's default folder is in it.
        TMPDIR: dataDir,
      },
    });
    const output = captureOutput(child);
    // "close", not "exit": the server behind sh holds the pipes until it has drained.
    const exited = new Promise<number | null>((done) => child.once("close", (code) => done(code)));
    stop = async () => {
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // the group is already gone
        }
      }
      return exited;
    };

    const ready = await waitForCapabilities(
      `http://127.0.0.1:${port}`,
      spawnedAt + READY_WITHIN_MS,
      () => child.exitCode !== null || child.signalCode !== null,
    );
    expect(ready, output()).toBe(200);
    // The group's SIGTERM also ends sh, so the server's own exit code is not
    // observable here (restart.test.ts asserts it); its drain log line is.
    await stop();
    expect(output()).toMatch(/"msg":"stopped"/);
    // V8's code of the modules it loaded, kept by `serve` (cli.ts) without NODE_COMPILE_CACHE set.
    const cached = await readdir(join(dataDir, "node-compile-cache"), { recursive: true });
    expect(cached.length).toBeGreaterThan(100);
  }, 180_000);
});

// The `psm-server` command (bin/psm-server.js, then dist/bin.js) checks the Node.js version with syntax
// old versions parse, before anything that needs Node.js 24.7 is loaded.
describe("psm-server (bin/psm-server.js)", () => {
  // Debian's and Ubuntu's packaged node, older than 24 on the machines this suite was written on.
  const OLD_NODE = process.env.PSM_OLD_NODE ?? "/usr/bin/node";
  const oldVersion = existsSync(OLD_NODE)
    ? spawnSync(OLD_NODE, ["--version"], { encoding: "utf8" }).stdout.trim()
    : "";
  const oldMajor = Number(/^v(\d+)\./.exec(oldVersion)?.[1] ?? "0");
  const hasOldNode = oldMajor >= 14 && oldMajor < 24;

  it.skipIf(!hasOldNode)(
    `on an older Node.js says which one it needs and exits 1 (skipped without a Node.js 14 to 23 at ${OLD_NODE}; set PSM_OLD_NODE)`,
    () => {
      const run = spawnSync(OLD_NODE, [BIN], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
        timeout: 10_000,
      });
      expect(run.status, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toBe(
        `psm-server needs Node.js 24.7 or later (this is ${oldVersion.replace(/^v/, "")})\n`,
      );
      expect(run.stdout).toBe("");
    },
  );

  it("on this Node.js starts the server, which reports its own configuration errors", () => {
    const run = spawnSync(process.execPath, [BIN], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "not-a-port" },
      timeout: 20_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toBe("Invalid configuration: PORT must be an integer from 0 to 65535\n");
  });

  it("is the package's bin, through a committed file with a shebang, beside the MCP stdio command", async () => {
    const manifest = JSON.parse(await readFile(join(APP_DIR, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    // Committed, not built: pnpm links them on a clean clone before any build, without a warning.
    expect(manifest.bin).toEqual({ "psm-server": "./bin/psm-server.js", "psm-mcp": "./bin/psm-mcp.js" });
    for (const [bin, built] of [
      ["bin/psm-server.js", "dist/bin.js"],
      ["bin/psm-mcp.js", "dist/mcp-bin.js"],
    ] as const) {
      for (const file of [bin, built]) {
        expect((await readFile(join(APP_DIR, file), "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
      }
      expect(await readFile(join(APP_DIR, bin), "utf8")).toContain(`"../${built}"`);
    }
  });
});
