import { afterAll, afterEach, type TestContext } from "vitest";
import { makeDataDir, removeDataDir, type ServerProcess, startServer } from "../../support/server-process.js";
import { freePort, type SmtpReceiver, type SmtpReceiverOptions, startSmtpReceiver } from "./smtp-receiver.js";

/** Starts things for one test and stops them after it, in reverse order. */
export interface Harness {
  dataDir(): Promise<string>;
  /** Our server; `env` adds to (and may override) server-process's defaults. */
  server(options: { dataDir: string; env?: Record<string, string> }): Promise<ServerProcess>;
  /** A server whose PUBLIC_URL is its own address, so mailed links can be fetched as they are. */
  selfLinkedServer(options: { dataDir: string; env?: Record<string, string> }): Promise<ServerProcess>;
  smtp(options?: SmtpReceiverOptions): Promise<SmtpReceiver>;
  /** Registers any other clean-up step. */
  defer(task: () => Promise<unknown>): void;
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

/**
 * A Harness whose resources are released after each test, or with `"file"`
 * after the last test of the calling describe block (for set-ups its tests share).
 */
export function useHarness(scope: "test" | "file" = "test"): Harness {
  const harness = openHarness();
  (scope === "test" ? afterEach : afterAll)(() => harness.release());
  return harness;
}

/** A Harness released when the calling test finishes; for concurrent tests. */
export function harnessFor(onTestFinished: TestContext["onTestFinished"]): Harness {
  const harness = openHarness();
  onTestFinished(() => harness.release());
  return harness;
}

/**
 * A Harness whose owner calls `release`. Concurrent tests release through
 * their context's onTestFinished (harnessFor): global hooks cannot tell them apart.
 */
export function openHarness(): Harness & { release(): Promise<void> } {
  const tasks: (() => Promise<unknown>)[] = [];
  const harness: Harness & { release(): Promise<void> } = {
    async release() {
      const failures: unknown[] = [];
      for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
        await task().catch((error: unknown) => failures.push(error));
      }
      if (failures.length > 0) throw failures[0];
    },
    async dataDir() {
      const dir = await makeDataDir();
      tasks.push(() => removeDataDir(dir));
      return dir;
    },
    async server(options) {
      const server = await startServer(options);
      tasks.push(() => stopServer(server));
      return server;
    },
    async selfLinkedServer(options) {
      // PORT=0 would leave the address unknown until after start; a port chosen
      // first can go into PUBLIC_URL. Another process taking it in between is unlikely.
      const port = await freePort();
      const env = { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...options.env };
      return harness.server({ dataDir: options.dataDir, env });
    },
    async smtp(options) {
      const receiver = await startSmtpReceiver(options);
      tasks.push(() => receiver.close());
      return receiver;
    },
    defer(task) {
      tasks.push(task);
    },
  };
  return harness;
}

/**
 * Polls `probe` every 50 ms until it returns a value other than undefined.
 * The limit is generous: it bounds a hang, it does not measure speed.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  options: { timeoutMs?: number; context?: () => string } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const context = options.context?.() ?? "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${context ? `\n${context}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
