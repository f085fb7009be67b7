import { type Backend, openDatabase } from "../../e2e/support/backends.js";
import { readOutbox } from "../../reliability/support/outbox.js";
import { freePort, makeDataDir, removeDataDir, startServer } from "../../support/server-process.js";

/** The admin the server creates at start (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const ADMIN = { email: "admin@example.com", password: "admin-password-1" };

/** One real server process for the browser: its URL, where its mail goes, and how to stop it. */
export interface Site {
  backend: Backend;
  url: string;
  /** The token of the newest mail to `to` whose link opens `link`, waiting for the dispatcher. */
  mailedToken(to: string, link: "reset-password" | "verify-email", after?: Set<string>): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the compiled server as `pnpm start` does, on a fresh database of its
 * own (a new PostgreSQL database, or SQLite in a new DATA_DIR), with
 * PUBLIC_URL set to where the browser reaches it, so mailed links and the
 * origin check match the pages.
 */
export async function startSite(backend: Backend): Promise<Site> {
  const dataDir = await makeDataDir();
  const database = await openDatabase(backend);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer({
    dataDir,
    env: {
      ...database.env,
      PORT: String(port),
      PUBLIC_URL: url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
  }).catch(async (error: unknown) => {
    await database.dispose();
    await removeDataDir(dataDir);
    throw error;
  });
  return {
    backend,
    url,
    async mailedToken(to, link, after = new Set()) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const mails = (await readOutbox(dataDir, link)).filter(
          (mail) => mail.to === to && !after.has(mail.token),
        );
        const newest = mails.at(-1);
        if (newest) return newest.token;
        if (Date.now() > deadline) throw new Error(`no ${link} mail to ${to} in 15 s:\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      await server.stop();
      await database.dispose();
      await removeDataDir(dataDir);
    },
  };
}
