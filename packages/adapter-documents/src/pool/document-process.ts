import { type ChildProcess, fork } from "node:child_process";
import { Socket } from "node:net";
import { fileURLToPath } from "node:url";

/** How a document process is started. */
export interface ProcessOptions {
  /** The script (`src/worker/entry.ts` or `dist/worker/entry.js`; tests pass their own). */
  entry: URL;
  /** Handed to the process as its one argument, as JSON. */
  settings: unknown;
  /** Its JS heap limit (`--max-old-space-size`). */
  heapMb: number;
}

/** A started document process: ready once its modules have loaded; `stderr()` its last words. */
export interface DocumentProcess {
  child: ChildProcess;
  ready: Promise<void>;
  /** The last 4 KiB it wrote to stderr (V8 names a heap limit there before it aborts). */
  stderr(): string;
}

/**
 * Forks a document process. Its own process, not a thread: killing it (SIGKILL at a deadline or
 * past the memory bound) can never take the server with it, where terminating a worker thread
 * that was compiling code has aborted the whole process (`Check failed: jit_page.has_value()`).
 */
export function startDocumentProcess(options: ProcessOptions, stopping: () => Error): DocumentProcess {
  const fromSource = options.entry.pathname.endsWith(".ts");
  const child = fork(fileURLToPath(options.entry), [JSON.stringify(options.settings)], {
    execArgv: [
      `--max-old-space-size=${options.heapMb}`,
      // A small young generation: a process holds one document at a time, and memory is the bound.
      "--max-semi-space-size=4",
      "--stack-size=4000",
      ...(fromSource ? ["--disable-warning=ExperimentalWarning"] : []),
    ],
    // Structured clone over the channel: the bytes travel as a Uint8Array, not as JSON.
    serialization: "advanced",
    // Nothing on stdout, which the MCP stdio server speaks JSON-RPC on; stderr is kept and forwarded.
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let tail = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    process.stderr.write(text);
    tail = (tail + text).slice(-4096);
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onReady = (message: { type?: string }) => {
      if (message.type !== "ready") return;
      child.off("message", onReady);
      child.off("exit", onExit);
      resolve();
    };
    const onExit = () => reject(stopping());
    child.on("message", onReady);
    child.once("exit", onExit);
  });
  ready.catch(() => {}); // answered through the job that awaits it
  return { child, ready, stderr: () => tail };
}

/** Lets the server exit while `child` idles (and holds it while a job runs). */
export function holdOpen(child: ChildProcess, hold: boolean): void {
  // stderr is a pipe (a socket): it holds the event loop as the channel does.
  const pipe = child.stderr instanceof Socket ? child.stderr : null;
  for (const handle of [child, child.channel, pipe]) {
    if (hold) handle?.ref();
    else handle?.unref();
  }
}
