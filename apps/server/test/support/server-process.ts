import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const MAIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/main.js");

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

export async function removeDataDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/**
 * Starts the compiled server with PORT=0 and resolves once it logs the URL
 * it listens on. Rejects with the process output if it exits first.
 */
export async function startServer(options: {
  dataDir: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: serverEnv(options),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => {
      // A server that never says it listens must not outlive the test run.
      child.kill("SIGKILL");
      fail(new Error(`server did not start in 30 s:\n${output}`));
    }, 30_000);
    const onData = () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        done(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    dataDir: options.dataDir,
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

// Only what the server needs: the test runner's own variables (TEST_DATABASE_URL,
// a developer's DATABASE_URL) must not leak into the process under test.
function serverEnv(options: { dataDir: string; env?: Record<string, string> }): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: options.dataDir,
    LOG_LEVEL: "info",
    RATE_LIMIT: "off",
    // V8's code cache for the server's modules: the same program, started
    // faster, which matters when a suite starts a dozen servers.
    NODE_COMPILE_CACHE: join(tmpdir(), "psm-test-node-compile-cache"),
    ...options.env,
  };
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

/** A loopback port that was free a moment ago, for a process that must be given its port up front. */
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

/**
 * A parsed JSON body that tests can walk by property (`body.user.id`) and
 * hand to `expect`; values needed as strings are converted with String().
 */
export interface Json {
  readonly [key: string]: Json;
}

/** What `call` sends besides method and path. */
export interface CallOptions {
  /** Sent as JSON (with Content-Type application/json). */
  body?: unknown;
  token?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Sent as is, for bodies JSON.stringify cannot make (malformed or oversized JSON); Content-Type from `headers`. */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  /** Sent as multipart/form-data; fetch writes the boundary into Content-Type. */
  form?: FormData;
}

/** JSON over fetch with optional credentials; returns status, headers and the parsed body. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? (options.form ?? options.rawBody) : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (HTML pages): keep the text
  }
  return { status: response.status, body: body as Json, headers: response.headers };
}
