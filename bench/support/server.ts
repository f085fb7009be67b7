/** Starts the compiled server (apps/server/dist/main.js) as `pnpm start` does, for benchmarks and the soak. */
import { type ChildProcess, spawn } from "node:child_process";
import { untilListening } from "../../apps/server/test/support/server-process.js";
import { REPO_ROOT } from "./modules.js";

/** A running server process. */
export interface BenchServer {
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last lines it printed (its JSON log and stderr), for error reports. */
  tail(): string;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

const TAIL_CHUNKS = 8;

/**
 * Spawns the server on a free port with RATE_LIMIT=off and `env` on top, and
 * resolves once it logs its URL. The log is read and dropped as it comes (only
 * a tail is kept), so a long run neither fills the pipe nor grows memory.
 */
export function startBenchServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchServer> {
  // PSM_BENCH_SERVER points at another build's main.js, to compare two versions on one machine.
  const entry = process.env.PSM_BENCH_SERVER ?? `${REPO_ROOT}apps/server/dist/main.js`;
  return startListening([...nodeArgs, entry], {
    PORT: "0",
    HOST: "127.0.0.1",
    RATE_LIMIT: "off",
    ...env,
  });
}

/** A ceiling server (bare-server.ts): a JSON hello, or the bytes of `payloadFile`. */
export function startBareServer(payloadFile?: string): Promise<BenchServer> {
  const script = `${REPO_ROOT}bench/support/bare-server.ts`;
  return startListening(payloadFile ? [script, payloadFile] : [script], {});
}

async function startListening(args: string[], env: Record<string, string>): Promise<BenchServer> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The last chunks only, without copying on every write (the access log runs at thousands of lines a second).
  const chunks: string[] = [];
  const keep = (chunk: Buffer) => {
    chunks.push(chunk.toString());
    if (chunks.length > TAIL_CHUNKS) chunks.shift();
  };
  const tail = () => chunks.join("");
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const { url, exited } = await untilListening(child, tail, 60_000);
  return {
    url,
    pid: child.pid ?? 0,
    child,
    tail,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      return exited;
    },
  };
}
