/**
 * The composed server (apps/server, as `pnpm start` builds it) in a process of its own, on
 * SQLite or on a fresh PostgreSQL database, for attacks whose proof is the server process
 * itself: its event loop answering a probe, its resident memory, its sockets. apps/server's
 * test harness starts it, as it does for the end-to-end suites.
 */
import { readFileSync } from "node:fs";
import { signUpAndLogIn } from "../../../../../apps/server/test/support/accounts.js";
import { BACKENDS, type Backend } from "../../../../../apps/server/test/support/backends.js";
import { deploy } from "../../../../../apps/server/test/support/deployment.js";
import { useSuiteValue } from "../../suite-value.js";

/** The backends of this run: PostgreSQL only when TEST_DATABASE_URL names a server. */
export { BACKENDS };

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
 * unless `env` (variables of decisions.md, over the defaults) turns them on.
 * Nothing of a failed start is left behind: process, database, folder.
 */
export async function startHostileServer(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<HostileServer> {
  const { url, server, stop } = await deploy(backend, { env });
  const pid = server.child.pid ?? 0;
  let accounts = 0;
  return {
    url,
    pid,
    rss() {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    async account() {
      return (await signUpAndLogIn(url, `hostile${++accounts}-${pid}@acme.io`, "hostile-pass-1")).token;
    },
    output: server.output,
    stop,
  };
}

/**
 * A server process for the calling describe block: started before its tests,
 * stopped after them. Its members may only be used once the tests run.
 */
export function useHostileServer(backend: Backend, env: Record<string, string> = {}): HostileServer {
  return useSuiteValue(
    "the server did not start",
    async (defer) => {
      const server = await startHostileServer(backend, env);
      defer(() => server.stop());
      return server;
    },
    60_000,
  );
}

/** One account on `server` whose token the calling describe block's tests share, signed up before them. */
export function useAccount(server: HostileServer): { token: string } {
  return useSuiteValue("no account was signed up", async () => ({ token: await server.account() }));
}
