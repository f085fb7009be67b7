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
 * How the Docker image (and, for the flags, `pnpm start`) runs the server: a young generation of
 * 4 MiB semi-spaces, an old generation of at most 1 GiB, and glibc's one arena (Dockerfile).
 * PSM_BENCH_RUNTIME=bare starts plain `node main.js` instead, for an A/B of these settings.
 */
const DEPLOYED = {
  nodeArgs: ["--max-semi-space-size=4", "--max-old-space-size=1024"],
  env: { MALLOC_ARENA_MAX: "1" },
};

/**
 * Spawns the server on a free port with RATE_LIMIT=off and `env` on top, and
 * resolves once it logs its URL. The log is read and dropped as it comes (only
 * a tail is kept), so a long run neither fills the pipe nor grows memory.
 */
export function startBenchServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchServer> {
  // PSM_BENCH_SERVER points at another build's main.js, to compare two versions on one machine.
  // The command the image runs (bin/psm-server.js → dist/bin.js → `serve`), compile cache and all.
  const entry = process.env.PSM_BENCH_SERVER ?? `${REPO_ROOT}apps/server/bin/psm-server.js`;
  const deployed = process.env.PSM_BENCH_RUNTIME === "bare" ? { nodeArgs: [], env: {} } : DEPLOYED;
  // PSM_BENCH_NODE_ARGS adds runtime flags (space-separated), for an A/B of one of them.
  const extra = process.env.PSM_BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  // PSM_BENCH_RUNTIME_ENV ("K=V K=V") replaces the image's environment, for an A/B of glibc's settings.
  const runtimeEnv = process.env.PSM_BENCH_RUNTIME_ENV;
  return startListening([...deployed.nodeArgs, ...extra, ...nodeArgs, entry], {
    PORT: "0",
    HOST: "127.0.0.1",
    RATE_LIMIT: "off",
    ...(runtimeEnv === undefined ? deployed.env : envOf(runtimeEnv)),
    ...env,
  });
}

/** "K=V K=V" as an environment. */
function envOf(pairs: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs.split(" ").filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`PSM_BENCH_RUNTIME_ENV: "${pair}" is not NAME=value`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
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
