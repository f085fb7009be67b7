import {
  createMarketplace,
  type Deps,
  type DocumentParser,
  type Marketplace,
  type Repositories,
  type SecurityMode,
} from "@psm/core";
import {
  createFakeHasher,
  createRecordingMailer,
  createTestClock,
  createTestDeps,
  type FakeHasher,
  type RecordingMailer,
  type TestClock,
} from "@psm/core/testing";
import { createHttpApp, type HttpConfig } from "../../../src/index.js";
import {
  type Account,
  actingAs,
  type CallOptions,
  readJson,
  requestInit,
  UNKNOWN_ID,
} from "../../helpers.js";

/** A user the attacks act as, or against. */
export type Session = Account;

/** One request: the harness's options, and the TCP peer it comes from. */
export interface Call extends CallOptions {
  /** The socket peer address the app sees (the `x-test-peer` header feeds `socketAddress`). */
  ip?: string;
}

/** A recorded answer, for the checks that walk every body (API3). */
export interface Seen {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** The app under attack, on test deps, with helpers that act as its users. */
export interface Target {
  app: ReturnType<typeof createHttpApp>;
  deps: Deps;
  marketplace: Marketplace;
  /** The counting password hasher (API2: the same work for unknown addresses). */
  hasher: FakeHasher;
  clock: TestClock;
  /** Mail the dispatcher delivered (after `marketplace.mail.dispatchDue()`). */
  mailer: RecordingMailer;
  /** Every answer so far, bodies parsed as JSON where they are JSON. */
  seen: Seen[];
  /** Errors the app logged (a 500 must be logged, never shown). */
  errors: object[];
  request(method: string, path: string, call?: Call): Promise<Response>;
  json<T = Record<string, unknown>>(res: Response): Promise<T>;
  signUp(email?: string): Promise<Session>;
  admin(): Promise<Session>;
  apiKey(session: Session): Promise<{ id: string; key: string }>;
  listing(session: Session, overrides?: Record<string, unknown>): Promise<{ id: string; user_id: string }>;
}

/** What a target is built from. */
export interface TargetOptions {
  mode?: SecurityMode;
  config?: Partial<HttpConfig>;
  /** The real parser of @psm/adapter-documents, or a stub; the test stub by default. */
  documents?: DocumentParser;
  /** Repositories to use (a throwing or spying wrapper); fresh memory ones by default. */
  repos?: Repositories;
}

let passwords = 0;

/** Builds createHttpApp on createMarketplace(createTestDeps()), as an embedder would. */
export function target(options: TargetOptions = {}): Target {
  const hasher = createFakeHasher();
  const clock = createTestClock();
  const mailer = createRecordingMailer();
  const deps: Deps = createTestDeps({
    hasher,
    clock,
    mailer,
    ...(options.documents ? { documents: options.documents } : {}),
    ...(options.repos ? { repos: options.repos } : {}),
    settings: { securityMode: options.mode ?? "strict" },
  });
  const marketplace = createMarketplace(deps);
  const errors: object[] = [];
  const app = createHttpApp({
    marketplace,
    config: {
      corsOrigins: "*",
      publicUrl: "http://localhost:3000",
      socketAddress: (c) => c.req.header("x-test-peer"),
      logger: { info() {}, warn() {}, error: (obj) => errors.push(obj) },
      ...options.config,
    },
  });
  const seen: Seen[] = [];

  const request: Target["request"] = async (method, path, { ip, ...call } = {}) => {
    const headers: Record<string, string> = { ...call.headers };
    if (ip) headers["x-test-peer"] = ip;
    const res = await app.request(path, requestInit(method, { ...call, headers }));
    const text = await res.clone().text();
    let parsed: unknown = text;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {}
    seen.push({ method, path, status: res.status, body: parsed });
    return res;
  };
  const users = actingAs(request, marketplace);

  return {
    app,
    deps,
    marketplace,
    hasher,
    clock,
    mailer,
    seen,
    errors,
    request,
    json: readJson,
    // Each user with a password of their own: a guess that works for one must not for another.
    signUp: (email) => users.signUp(email, `pw-${++passwords}-secret`),
    admin: users.admin,
    apiKey: users.apiKey,
    listing: users.listing,
  };
}

export { UNKNOWN_ID };

/** Ids an attacker would try next to a known one: neighbours in its last hex digits, and randoms. */
export function guessedIds(known: string): string[] {
  const tail = Number.parseInt(known.slice(-4), 16);
  const near = [-2, -1, 1, 2].map(
    (d) => `${known.slice(0, -4)}${((tail + d) & 0xffff).toString(16).padStart(4, "0")}`,
  );
  return [...near, UNKNOWN_ID, crypto.randomUUID()];
}
