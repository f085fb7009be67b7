import { createMarketplace, type Marketplace, type SecurityMode } from "@psm/core";
import { createTestDeps, type TestDeps } from "@psm/core/testing";
import { expect } from "vitest";
import { createHttpApp, type HttpConfig, watchListingWrites } from "../src/index.js";

/** What a test gets: the app, its marketplace and fakes, captured logs and request helpers. */
export interface Harness {
  app: ReturnType<typeof createHttpApp>;
  deps: TestDeps;
  marketplace: Marketplace;
  logs: { level: string; obj: object; msg?: string | undefined }[];
  call(method: string, path: string, options?: CallOptions): Promise<Response>;
  json<T = Record<string, unknown>>(res: Response): Promise<T>;
  signUp(email?: string, password?: string): Promise<Session>;
  admin(): Promise<Session>;
  apiKey(session: Session): Promise<string>;
  listing(session: Session, overrides?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A signed-in user: id and JWT. */
export interface Session {
  id: string;
  email: string;
  token: string;
}

/** One request's extras: JSON body, credentials, raw headers. */
export interface CallOptions {
  body?: unknown;
  raw?: RequestInit["body"];
  token?: string;
  key?: string;
  headers?: Record<string, string>;
}

let counter = 0;

/** Builds an app on createTestDeps in the given mode. */
export function harness(mode: SecurityMode = "strict", config: Partial<HttpConfig> = {}): Harness {
  const deps = createTestDeps({ settings: { securityMode: mode } });
  // Composed as apps/server composes it, so the answer cache sees this process's writes; a
  // write straight to `deps.repos` stands for another process's.
  const watched = watchListingWrites(deps.repos);
  const marketplace = createMarketplace({ ...deps, repos: watched.repos });
  const logs: Harness["logs"] = [];
  const log = (level: string) => (obj: object, msg?: string) => logs.push({ level, obj, msg });
  const app = createHttpApp({
    marketplace,
    config: {
      corsOrigins: "*",
      publicUrl: "http://localhost:3000",
      logger: { info: log("info"), warn: log("warn"), error: log("error") },
      listingRevision: watched.revision,
      ...config,
    },
  });

  const call: Requester = (method, path, options = {}) =>
    Promise.resolve(app.request(path, requestInit(method, options)));
  const users = actingAs(call, marketplace);

  return {
    app,
    deps,
    marketplace,
    logs,
    call,
    json: readJson,
    signUp: users.signUp,
    admin: users.admin,
    apiKey: async (session) => (await users.apiKey(session)).key,
    listing: users.listing,
  };
}

/** The request `options` describe: credentials as headers, a JSON body serialised and typed. */
export function requestInit(method: string, options: CallOptions): RequestInit {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.key) headers["X-API-Key"] = options.key;
  let body: RequestInit["body"] | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  return { method, headers, body };
}

/** An answer's JSON body, typed as the test expects it. */
export async function readJson<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** How a test sends one request to the app under test. */
export type Requester = (method: string, path: string, options?: CallOptions) => Promise<Response>;

/** A user a test acts as: what signing up and logging in through the API gave. */
export interface Account extends Session {
  password: string;
}

/**
 * The users a test acts as, made through the API as a client would (sign-up, login, a key, a
 * listing), over any requester: the plain harness and the attack target share them.
 */
export function actingAs(call: Requester, marketplace: Marketplace) {
  const expectStatus = async (what: string, res: Response, status: number) => {
    if (res.status !== status) throw new Error(`${what} ${res.status}: ${await res.text()}`);
  };
  const logIn = async (email: string, password: string): Promise<Account> => {
    const res = await call("POST", "/api/auth/login", { body: { email, password } });
    await expectStatus("login", res, 200);
    const body = await readJson<{ user: { id: string }; token: string }>(res);
    return { id: body.user.id, email, password, token: body.token };
  };
  return {
    async signUp(email = `user${++counter}@example.com`, password = "secret-password"): Promise<Account> {
      await expectStatus(
        "signup",
        await call("POST", "/api/auth/signup", { body: { email, password } }),
        201,
      );
      return logIn(email, password);
    },
    async admin(): Promise<Account> {
      const email = `admin${++counter}@example.com`;
      await marketplace.admin.ensureAdmin({ email, password: "admin-password" });
      return logIn(email, "admin-password");
    },
    async apiKey(session: Session): Promise<{ id: string; key: string }> {
      const res = await call("POST", "/api/keys", { token: session.token, body: { name: "test" } });
      await expectStatus("key", res, 200);
      return (await readJson<{ key: { id: string; key: string } }>(res)).key;
    },
    async listing(session: Session, overrides: Record<string, unknown> = {}) {
      const res = await call("POST", "/api/listings", {
        token: session.token,
        body: { title: "Audit", description: "A careful audit", category: "cybersecurity", ...overrides },
      });
      await expectStatus("listing", res, 201);
      return (await readJson<{ listing: { id: string; user_id: string } & Record<string, unknown> }>(res))
        .listing;
    },
  };
}

/** A UUID nobody has. */
export const UNKNOWN_ID = "01900000-0000-7000-8000-000000000000";

/**
 * A harness and the people most listing and message rules are about: an author, their listing,
 * and a buyer (any signed-in user who is not the author).
 */
export async function withListing(mode?: SecurityMode) {
  const h = harness(mode);
  const author = await h.signUp();
  const buyer = await h.signUp();
  const listing = await h.listing(author);
  return { h, author, buyer, listing };
}

/** Checks an error answer: its status and its whole body, which the wire keeps to `{error, code}`. */
export async function expectError(res: Response, status: number, body: { error: string; code: string }) {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual(body);
}
