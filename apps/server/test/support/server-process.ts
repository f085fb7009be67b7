import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_DIR } from "./paths.js";

const MAIN = join(APP_DIR, "dist/main.js");

/**
 * V8's code cache for the server's modules: the same program, started faster,
 * which matters when a suite starts a dozen processes.
 */
export const COMPILE_CACHE = join(tmpdir(), "psm-test-node-compile-cache");

/** One JWT secret for processes that must accept each other's tokens (or a restarted process its own). */
export const SHARED_JWT_SECRET = "reliability-secret-0123456789abcdef0123456789";

/** A server process started as `pnpm start` starts it, on a free loopback port. */
export interface ServerProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process printed (JSON log lines and stderr). */
  output: () => string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Makes a temporary DATA_DIR that `removeDataDir` deletes. */
export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "psm-e2e-"));
}

/** Deletes a DATA_DIR and everything in it. */
export async function removeDataDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/**
 * The variables a process under test gets: `env` over PATH, HOME and the code
 * cache. The test runner's own variables (TEST_DATABASE_URL, a developer's
 * DATABASE_URL) must not leak into the process under test.
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    ...env,
  };
}

/** Everything `child` prints on stdout and stderr, in the order it arrives. */
export function captureOutput(child: ChildProcess): () => string {
  let output = "";
  const add = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", add);
  child.stderr?.on("data", add);
  return () => output;
}

/** The last lines a process printed, for failure messages. */
export function tail(output: string, lines = 30): string {
  return output.split("\n").slice(-lines).join("\n");
}

/**
 * Waits for a just-spawned server to log the URL it listens on, reading what
 * `output` holds (all of it, or the tail a long benchmark keeps). Rejects with
 * that output if the process exits first or says nothing within `timeoutMs`;
 * then it is killed, since a server that never listens must not outlive the run.
 * Shared with bench/support/server.ts.
 */
export async function untilListening(
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<{ url: string; exited: Promise<number | null> }> {
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`server did not start in ${timeoutMs / 1000} s:\n${output()}`));
    }, timeoutMs);
    const onData = () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output());
      if (!match?.[1]) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      done(match[1]);
    };
    child.stdout?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before listening:\n${output()}`));
    });
  });
  return { url, exited };
}

/**
 * Starts the compiled server with PORT=0 and resolves once it logs the URL
 * it listens on. Rejects with the process output if it exits first.
 */
export async function startServer(options: {
  dataDir: string;
  env?: Record<string, string>;
  /** Options of node itself, before the script (e.g. an --import hook that watches the process). */
  nodeArgs?: string[];
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
    env: serverEnv(options),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = captureOutput(child);
  const { url, exited } = await untilListening(child, output, 30_000);
  return {
    url,
    dataDir: options.dataDir,
    child,
    output,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

function serverEnv(options: { dataDir: string; env?: Record<string, string> }): Record<string, string> {
  return childEnv({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: options.dataDir,
    LOG_LEVEL: "info",
    RATE_LIMIT: "off",
    ...options.env,
  });
}

// A stop that hangs would hang the whole file; after this the process is killed.
const STOP_LIMIT_MS = 15_000;

/** Stops a server with `signal` and waits (bounded) for its exit code; kills it if it hangs. */
export async function stopServer(
  server: ServerProcess,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<"hung">((done) => {
    timer = setTimeout(() => done("hung"), STOP_LIMIT_MS);
  });
  try {
    const result = await Promise.race([server.stop(signal), limit]);
    if (result !== "hung") return result;
    server.child.kill("SIGKILL");
    throw new Error(`server did not exit within ${STOP_LIMIT_MS} ms of ${signal}:\n${server.output()}`);
  } finally {
    clearTimeout(timer);
  }
}

/** How a server process that stopped by itself ended. */
export interface ServerExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the compiled server expecting it to stop by itself (a configuration
 * error) and resolves how it ended. A server still running after `timeoutMs`
 * is killed and reported with code null, so a test fails instead of hanging.
 */
export async function runUntilExit(options: {
  dataDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ServerExit> {
  const child = spawn(process.execPath, [MAIN], {
    env: serverEnv(options),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  const code = await new Promise<number | null>((done) => child.once("close", (exitCode) => done(exitCode)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * A loopback port that was free a moment ago, for a process that must be
 * given its port up front. Another process taking it in between is unlikely.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", done);
  });
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (typeof address !== "object" || address === null) throw new Error("no port assigned");
  return address.port;
}
