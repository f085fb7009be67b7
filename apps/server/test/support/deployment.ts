/** One server process on a fresh storage of its own, with the mail it writes to its outbox. */
import type { Backend } from "./backends.js";
import { openHarness } from "./harness.js";
import { type Client, client } from "./http.js";
import { type MailLink, readOutbox } from "./outbox.js";
import { type ServerProcess, tail } from "./server-process.js";
import { waitFor } from "./wait.js";

/** How to deploy: variables over server-process's defaults, and whether PUBLIC_URL names the server's port. */
export interface DeployOptions {
  env?: Record<string, string>;
  /**
   * A port chosen up front, with PUBLIC_URL naming it, so that mailed links,
   * the origin check and the MCP resource's address match where clients reach it.
   */
  ownPort?: boolean;
}

/** A running server, its storage, and how to stop it and throw the storage away. */
export interface Deployment {
  backend: Backend;
  url: string;
  api: Client;
  server: ServerProcess;
  dataDir: string;
  /** DATA_DIR and, for PostgreSQL, DATABASE_URL: what a second process (psm-mcp) needs to open the same storage. */
  storageEnv: Record<string, string>;
  /**
   * The token of the first `link` mail to `to` not handed out before, waiting
   * for it (15 s at most: the dispatcher ticks every second).
   */
  mailed(link: MailLink, to: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the compiled server as `pnpm start` does, on a fresh database of its
 * own (a new PostgreSQL database, or SQLite in a new DATA_DIR). Nothing of a
 * failed start is left behind.
 */
export async function deploy(backend: Backend, options: DeployOptions = {}): Promise<Deployment> {
  const h = openHarness();
  let dataDir: string;
  let storage: Record<string, string>;
  let server: ServerProcess;
  try {
    dataDir = await h.dataDir();
    storage = (await h.database(backend)).env;
    const start = options.ownPort ? h.selfLinkedServer : h.server;
    server = await start({ dataDir, env: { ...storage, ...options.env } });
  } catch (error) {
    await h.release();
    throw error;
  }
  const handedOut = new Set<string>();
  return {
    backend,
    url: server.url,
    api: client(server.url),
    server,
    dataDir,
    storageEnv: { DATA_DIR: dataDir, ...storage },
    async mailed(link, to) {
      const mail = await waitFor(
        `a ${link} mail to ${to}`,
        async () => (await readOutbox(dataDir, link)).find((m) => m.to === to && !handedOut.has(m.token)),
        { timeoutMs: 15_000, context: () => tail(server.output()) },
      );
      handedOut.add(mail.token);
      return mail.token;
    },
    stop: () => h.release(),
  };
}
