import { createMarketplace, type Marketplace, type SecurityMode } from "@psm/core";
import { createTestDeps, type TestDeps } from "@psm/core/testing";
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

  const call: Harness["call"] = (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.key) headers["X-API-Key"] = options.key;
    let body: RequestInit["body"] | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] ??= "application/json";
    }
    return Promise.resolve(app.request(path, { method, headers, body }));
  };
  const json = async <T>(res: Response) => (await res.json()) as T;

  const h: Harness = {
    app,
    deps,
    marketplace,
    logs,
    call,
    json,
    async signUp(email = `user${++counter}@example.com`, password = "secret-password") {
      const signup = await call("POST", "/api/auth/signup", { body: { email, password } });
      if (signup.status !== 201) throw new Error(`signup ${signup.status}: ${await signup.text()}`);
      return logIn(email, password);
    },
    async admin() {
      const email = `admin${++counter}@example.com`;
      await marketplace.admin.ensureAdmin({ email, password: "admin-password" });
      return logIn(email, "admin-password");
    },
    async apiKey(session) {
      const res = await call("POST", "/api/keys", { token: session.token, body: { name: "test" } });
      const body = await json<{ key: { key: string } }>(res);
      return body.key.key;
    },
    async listing(session, overrides = {}) {
      const res = await call("POST", "/api/listings", {
        token: session.token,
        body: { title: "Audit", description: "A careful audit", category: "cybersecurity", ...overrides },
      });
      if (res.status !== 201) throw new Error(`listing ${res.status}: ${await res.text()}`);
      return (await json<{ listing: Record<string, unknown> }>(res)).listing;
    },
  };

  async function logIn(email: string, password: string): Promise<Session> {
    const res = await call("POST", "/api/auth/login", { body: { email, password } });
    if (res.status !== 200) throw new Error(`login ${res.status}: ${await res.text()}`);
    const body = await json<{ user: { id: string }; token: string }>(res);
    return { id: body.user.id, email, token: body.token };
  }

  return h;
}

/** A UUID nobody has. */
export const UNKNOWN_ID = "01900000-0000-7000-8000-000000000000";
