/**
 * The composed server (apps/server, as `pnpm start` builds it) in a process of its own, on
 * SQLite or on a fresh PostgreSQL database, for attacks whose proof is the server process
 * itself: its event loop answering a probe, its resident memory, its sockets.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, testDatabaseUrl } from "@psm/adapter-postgres/testing";

const MAIN = new URL("../../../../../apps/server/dist/main.js", import.meta.url);

/** The backends of this run: PostgreSQL only when TEST_DATABASE_URL names a server. */
export const BACKENDS: readonly ("sqlite" | "postgres")[] =
  testDatabaseUrl() === undefined ? ["sqlite"] : ["sqlite", "postgres"];

/** A running server process. */
export interface HostileServer {
  url: string;
  pid: number;
  /** Resident memory of the server process now, in bytes (VmRSS). */
  rss(): number;
  /** A signed-in account's bearer token (a new account each call). */
  account(): Promise<string>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `apps/server/dist/main.js` on a free loopback port, rate limits off
 * unless `env` (variables of decisions.md, over the defaults here) turns them on.
 */
export async function startHostileServer(
  backend: "sqlite" | "postgres",
  env: Record<string, string> = {},
): Promise<HostileServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "psm-hostile-"));
  const adminUrl = testDatabaseUrl();
  const database =
    backend === "postgres" && adminUrl ? await createTestDatabase(adminUrl, "psm_hostile") : null;
  const child: ChildProcess = spawn(process.execPath, [MAIN.pathname], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      RATE_LIMIT: "off",
      LOG_LEVEL: "info",
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const cleanUp = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
      const look = () => {
        const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on("data", look);
      child.once("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)));
    });
  } catch (error) {
    await cleanUp(); // nothing of a failed start is left behind: process, database, folder
    throw error;
  }
  let accounts = 0;
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    rss() {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    async account() {
      const email = `hostile${++accounts}-${pid}@acme.io`;
      const body = JSON.stringify({ email, password: "hostile-pass-1" });
      const headers = { "content-type": "application/json" };
      await fetch(`${url}/api/auth/signup`, { method: "POST", headers, body });
      const res = await fetch(`${url}/api/auth/login`, { method: "POST", headers, body });
      return ((await res.json()) as { token: string }).token;
    },
    output: () => output,
    stop: cleanUp,
  };
}
