import { type Backend, type Database, openDatabase } from "../../e2e/support/backends.js";
import { type Client, client, expectStatus, str } from "../../e2e/support/client.js";
import { type Account, ADMIN, PASSWORD } from "../../e2e/support/world.js";
import {
  freePort,
  makeDataDir,
  removeDataDir,
  type ServerProcess,
  startServer,
} from "../../support/server-process.js";

/** A running server on a fresh database, with what a second process (psm-mcp) needs to open the same storage. */
export interface Deployment {
  backend: Backend;
  url: string;
  api: Client;
  server: ServerProcess;
  /** DATA_DIR and, for PostgreSQL, DATABASE_URL: the storage of this deployment. */
  storageEnv: Record<string, string>;
  admin: Account;
  account(label: string): Promise<Account>;
  stop(): Promise<void>;
}

let serial = 0;

/** Starts the compiled server (strict mode, the admin configured) on `backend`, with `env` besides. */
export async function deploy(backend: Backend, env: Record<string, string> = {}): Promise<Deployment> {
  const dataDir = await makeDataDir();
  let database: Database | undefined;
  let server: ServerProcess;
  try {
    database = await openDatabase(backend);
    // A port of its own up front: PUBLIC_URL (the MCP resource's address) must name it.
    const port = String(await freePort());
    server = await startServer({
      dataDir,
      env: {
        ...database.env,
        PORT: port,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...env,
      },
    });
  } catch (error) {
    await database?.dispose();
    await removeDataDir(dataDir);
    throw error;
  }
  const db = database;
  const api = client(server.url);
  const logIn = async (email: string, password: string): Promise<Account> => {
    const login = await api.post("/api/auth/login", { body: { email, password } });
    expectStatus(login, 200);
    const token = str(login.body.token);
    const created = await api.post("/api/keys", { token, body: { name: "agent" } });
    expectStatus(created, 200);
    return {
      id: str(login.body.user?.id),
      email,
      token,
      key: str(created.body.key?.key),
      keyId: str(created.body.key?.id),
    };
  };
  const stop = async () => {
    try {
      await server.stop();
    } finally {
      await db.dispose();
      await removeDataDir(dataDir);
    }
  };
  let admin: Account;
  try {
    admin = await logIn(ADMIN.email, ADMIN.password);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    backend,
    url: server.url,
    api,
    server,
    storageEnv: { DATA_DIR: dataDir, ...db.env },
    admin,
    async account(label) {
      const email = `${label}-${++serial}@example.com`;
      expectStatus(await api.post("/api/auth/signup", { body: { email, password: PASSWORD } }), 201);
      return logIn(email, PASSWORD);
    },
    stop,
  };
}
