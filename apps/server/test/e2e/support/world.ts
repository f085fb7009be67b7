import { expect } from "vitest";
import {
  type Json,
  makeDataDir,
  removeDataDir,
  type ServerProcess,
  startServer,
} from "../../support/server-process.js";
import { type Backend, type Database, type Mode, openDatabase } from "./backends.js";
import { type Client, client, expectStatus, str } from "./client.js";

/** The admin that ADMIN_EMAIL/ADMIN_PASSWORD make exist at start. */
export const ADMIN = { email: "admin@example.com", password: "admin-password-1" };

/** The password of every account the suite signs up. */
export const PASSWORD = "correct-horse-battery";

/** A signed-up user with a JWT and an API key of their own. */
export interface Account {
  id: string;
  email: string;
  token: string;
  key: string;
  keyId: string;
}

/** One running server, its storage and helpers to populate it. */
export interface World {
  backend: Backend;
  mode: Mode;
  url: string;
  api: Client;
  server: ServerProcess;
  /** DATA_DIR and, for PostgreSQL, DATABASE_URL: what a second process (psm-mcp) needs to open the same storage. */
  storageEnv: Record<string, string>;
  /** The configured admin, logged in (JWT) and with an API key. */
  admin: Account;
  /** Signs up a new user (email from `label`), logs in and creates an API key. */
  account(label: string): Promise<Account>;
  /** Several accounts at once: password hashing runs on the server's thread pool, side by side. */
  accounts<const L extends readonly string[]>(...labels: L): Promise<{ -readonly [K in keyof L]: Account }>;
  /** Creates a listing as `owner` with their API key; `fields` override the defaults. */
  listing(owner: Account, fields?: Record<string, unknown>): Promise<Json>;
  stop(): Promise<void>;
}

/** Starts the real server for one backend and mode, with the admin configured. */
export async function startWorld(
  backend: Backend,
  mode: Mode,
  env: Record<string, string> = {},
): Promise<World> {
  const dataDir = await makeDataDir();
  let database: Database | undefined;
  let server: ServerProcess | undefined;
  try {
    database = await openDatabase(backend);
    server = await startServer({
      dataDir,
      env: {
        ...database.env,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...(mode === "legacy" ? { LEGACY_PUBLIC_ENDPOINTS: "true" } : {}),
        ...env,
      },
    });
  } catch (error) {
    await database?.dispose();
    await removeDataDir(dataDir);
    throw error;
  }
  const running = server;
  const db = database;
  const api = client(running.url);
  let serial = 0;

  const logIn = async (email: string, password: string): Promise<Account> => {
    const login = await api.post("/api/auth/login", { body: { email, password } });
    expectStatus(login, 200);
    const token = str(login.body.token);
    const created = await api.post("/api/keys", { token, body: { name: "e2e" } });
    expectStatus(created, 200);
    return {
      id: str(login.body.user?.id),
      email,
      token,
      key: str(created.body.key?.key),
      keyId: str(created.body.key?.id),
    };
  };

  const account = async (label: string): Promise<Account> => {
    serial += 1;
    const email = `${label}-${serial}@example.com`;
    const signup = await api.post("/api/auth/signup", { body: { email, password: PASSWORD } });
    expectStatus(signup, 201);
    return logIn(email, PASSWORD);
  };

  const stop = async () => {
    try {
      await running.stop();
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
    mode,
    url: running.url,
    api,
    server: running,
    storageEnv: { DATA_DIR: dataDir, ...db.env },
    admin,
    account,
    accounts: (...labels) =>
      Promise.all(labels.map((label) => account(label))) as Promise<{
        -readonly [K in keyof typeof labels]: Account;
      }>,
    async listing(owner, fields = {}) {
      const reply = await api.post("/api/listings", {
        apiKey: owner.key,
        body: {
          title: "Data audit",
          description: "Two weeks of work.",
          category: "data-analytics",
          ...fields,
        },
      });
      expectStatus(reply, 201);
      expect(reply.body.listing?.user_id).toBe(owner.id);
      return reply.body.listing as Json;
    },
    stop,
  };
}
