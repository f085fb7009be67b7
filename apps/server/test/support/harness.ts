/** What a test starts (data dirs, databases, servers, SMTP receivers), stopped after it in reverse order. */
import { afterAll, afterEach, beforeAll, type TestContext } from "vitest";
import { type Backend, type Database, openDatabase } from "./backends.js";
import {
  freePort,
  makeDataDir,
  removeDataDir,
  type ServerProcess,
  startServer,
  stopServer,
} from "./server-process.js";
import { type SmtpReceiver, type SmtpReceiverOptions, startSmtpReceiver } from "./smtp-receiver.js";

/** What `server` starts: a DATA_DIR, variables over server-process's defaults, and how to stop it. */
export interface ServerOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** Options of node itself, before the script. */
  nodeArgs?: string[];
  /** The signal that stops it at release: SIGTERM (default) drains; SIGKILL for tests that kill anyway. */
  stopWith?: NodeJS.Signals;
}

/** Starts things for one test and stops them after it, in reverse order. */
export interface Harness {
  dataDir(): Promise<string>;
  /** A fresh database on `backend` (see openDatabase), dropped at release. */
  database(backend: Backend, prefix?: string): Promise<Database>;
  /** Our server; `env` adds to (and may override) server-process's defaults. */
  server(options: ServerOptions): Promise<ServerProcess>;
  /** A server whose PUBLIC_URL is its own address, so mailed links can be fetched as they are. */
  selfLinkedServer(options: ServerOptions): Promise<ServerProcess>;
  smtp(options?: SmtpReceiverOptions): Promise<SmtpReceiver>;
  /** Registers any other clean-up step. */
  defer(task: () => Promise<unknown>): void;
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

/**
 * What `start` makes with a Harness, made before the first test of the
 * calling describe block and released after its last. Its tests share it
 * (so they must not get in each other's way) and read it through the
 * returned function.
 */
export function useShared<T>(start: (h: Harness) => Promise<T>): () => T {
  const h = useHarness("file");
  let made: { value: T } | undefined;
  beforeAll(async () => {
    made = { value: await start(h) };
  });
  return () => {
    if (!made) throw new Error("the shared set-up did not finish (see beforeAll)");
    return made.value;
  };
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
    async database(backend, prefix) {
      const database = await openDatabase(backend, prefix);
      tasks.push(() => database.dispose());
      return database;
    },
    async server({ stopWith, ...options }) {
      const server = await startServer(options);
      tasks.push(() => stopServer(server, stopWith));
      return server;
    },
    async selfLinkedServer(options) {
      // PORT=0 would leave the address unknown until after start; a port chosen
      // first can go into PUBLIC_URL.
      const port = await freePort();
      const env = { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...options.env };
      return harness.server({ ...options, env });
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
