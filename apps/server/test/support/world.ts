/** A deployment with its admin configured and helpers to populate it: what the end-to-end suites act on. */
import { expect } from "vitest";
import { createKey, logIn, signUp } from "./accounts.js";
import type { Backend, Mode } from "./backends.js";
import { type Deployment, type DeployOptions, deploy } from "./deployment.js";
import { expectStatus, type Json } from "./http.js";

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
export interface World extends Deployment {
  mode: Mode;
  /** The configured admin, logged in (JWT) and with an API key. */
  admin: Account;
  /** Signs up a new user (email from `label`), logs in and creates an API key. */
  account(label: string): Promise<Account>;
  /** Several accounts at once: password hashing runs on the server's thread pool, side by side. */
  accounts<const L extends readonly string[]>(...labels: L): Promise<{ -readonly [K in keyof L]: Account }>;
  /** Creates a listing as `owner` with their API key; `fields` override the defaults. */
  listing(owner: Account, fields?: Record<string, unknown>): Promise<Json>;
}

/** Starts the real server for one backend and mode, with the admin configured and `env` besides. */
export async function startWorld(
  backend: Backend,
  mode: Mode,
  env: Record<string, string> = {},
  options: Omit<DeployOptions, "env"> = {},
): Promise<World> {
  const deployment = await deploy(backend, {
    ...options,
    env: {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...(mode === "legacy" ? { LEGACY_PUBLIC_ENDPOINTS: "true" } : {}),
      ...env,
    },
  });
  const { url, api } = deployment;
  let serial = 0;

  const withKey = async (email: string, password: string): Promise<Account> => {
    const session = await logIn(url, email, password);
    const key = await createKey(url, { token: session.token });
    return { ...session, key: key.key, keyId: key.id };
  };
  const account = async (label: string): Promise<Account> => {
    serial += 1;
    const email = `${label}-${serial}@example.com`;
    await signUp(url, email, PASSWORD);
    return withKey(email, PASSWORD);
  };

  let admin: Account;
  try {
    admin = await withKey(ADMIN.email, ADMIN.password);
  } catch (error) {
    await deployment.stop();
    throw error;
  }

  return {
    ...deployment,
    mode,
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
  };
}
