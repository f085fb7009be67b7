/**
 * Account pre-hijacking (OWASP API2, broken authentication): anyone can sign
 * up with an address they do not own and arm the account with API keys (and
 * keys that mint keys) before its owner shows up. When the owner recovers the
 * account through the reset mail, every credential the intruder held must
 * die. Proven on the composed server (apps/server, as `pnpm start` runs it),
 * on SQLite and on PostgreSQL, with the tokens read from the mail it writes.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BACKENDS,
  type Backend,
  type Database,
  openDatabase,
  reportSkippedPostgres,
} from "../e2e/support/backends.js";
import { type MailLink, readOutbox } from "../reliability/support/outbox.js";
import {
  type CallOptions,
  call,
  makeDataDir,
  removeDataDir,
  type ServerProcess,
  startServer,
} from "../support/server-process.js";

/** A server on a fresh database of `backend`, with a mailbox: the outbox it writes. */
async function open(backend: Backend, env: Record<string, string> = {}) {
  const dataDir = await makeDataDir();
  const database: Database = await openDatabase(backend);
  let server: ServerProcess;
  try {
    server = await startServer({ dataDir, env: { ...database.env, ...env } });
  } catch (error) {
    // Nothing of a failed start is left behind.
    await database.dispose();
    await removeDataDir(dataDir);
    throw error;
  }
  const seen = new Set<string>();
  return {
    url: server.url,
    api: (method: string, path: string, options?: CallOptions) => call(server.url, method, path, options),
    /** Waits (at most ~15 s: the dispatcher ticks every second) for a `link` mail to `to` not seen before. */
    async mailed(link: MailLink, to: string): Promise<string> {
      for (let attempt = 0; attempt < 300; attempt++) {
        const fresh = (await readOutbox(dataDir, link)).find(
          (mail) => mail.to === to && !seen.has(mail.token),
        );
        if (fresh) {
          seen.add(fresh.token);
          return fresh.token;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no ${link} mail to ${to}:\n${server.output().slice(-2000)}`);
    },
    async close() {
      await server.stop();
      await database.dispose();
      await removeDataDir(dataDir);
    },
  };
}

type Server = Awaited<ReturnType<typeof open>>;

/** Signs up and logs in; answers the JWT and the user as the wire shows it. */
async function account(s: Server, email: string, password: string) {
  const signup = await s.api("POST", "/api/auth/signup", { body: { email, password } });
  expect(signup.status, JSON.stringify(signup.body)).toBe(201);
  const login = await s.api("POST", "/api/auth/login", { body: { email, password } });
  expect(login.status).toBe(200);
  return { token: String(login.body.token), id: String(login.body.user?.id) };
}

/** Mints a key with a JWT or with another key. */
async function mintKey(s: Server, credential: { token?: string; apiKey?: string }): Promise<string> {
  const res = await s.api("POST", "/api/keys", { ...credential, body: { name: "minted" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body.key?.key);
}

/** The status GET /api/auth/me answers for a credential. */
async function meStatus(s: Server, credential: { token?: string; apiKey?: string }): Promise<number> {
  return (await s.api("GET", "/api/auth/me", credential)).status;
}

/** Asks for a reset mail to `email` and sets `password` with its token. */
async function recover(s: Server, email: string, password: string): Promise<void> {
  expect((await s.api("POST", "/api/auth/reset-password", { body: { email } })).status).toBe(200);
  const token = await s.mailed("reset-password", email);
  const res = await s.api("POST", "/api/auth/update-password", { body: { token, new_password: password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const LISTING = { title: "Audit", description: "A careful audit", category: "cybersecurity" };

reportSkippedPostgres("account recovery");

describe.each(BACKENDS)("account recovery on %s", (backend) => {
  let s: Server;
  beforeAll(async () => {
    s = await open(backend);
  });
  afterAll(() => s?.close());

  test("the owner's reset ends the intruder's keys (minted by JWT and by key) and JWT", async () => {
    const email = "owner@acme.test";
    const intruder = await account(s, email, "intruder-pass");
    const byJwt = await mintKey(s, { token: intruder.token });
    const byKey = await mintKey(s, { apiKey: byJwt });
    expect(await meStatus(s, { apiKey: byKey })).toBe(200);

    await recover(s, email, "owner-password");

    expect(await meStatus(s, { apiKey: byJwt })).toBe(401);
    expect(await meStatus(s, { apiKey: byKey })).toBe(401);
    expect(await meStatus(s, { token: intruder.token })).toBe(401);
    expect((await s.api("POST", "/api/keys", { apiKey: byKey, body: {} })).status).toBe(401);
    const intruderLogin = await s.api("POST", "/api/auth/login", {
      body: { email, password: "intruder-pass" },
    });
    expect(intruderLogin.status).toBe(401);
    const owner = await s.api("POST", "/api/auth/login", { body: { email, password: "owner-password" } });
    expect(owner.status).toBe(200);
    expect(owner.body.user).toMatchObject({ id: intruder.id, email, email_verified: true });

    // A key made once the address is proven survives a later reset; the JWT before it does not.
    const ownerToken = String(owner.body.token);
    const ownerKey = await mintKey(s, { token: ownerToken });
    await recover(s, email, "newer-password");
    expect(await meStatus(s, { apiKey: ownerKey })).toBe(200);
    expect(await meStatus(s, { token: ownerToken })).toBe(401);
  });

  test("following the verification link deactivates nothing; its GET spends nothing", async () => {
    const email = "linked@acme.test";
    const user = await account(s, email, "user-password");
    const key = await mintKey(s, { token: user.token });
    const token = await s.mailed("verify-email", email);

    const page = await fetch(`${s.url}/verify-email?token=${token}`);
    expect(page.status).toBe(200);
    const me = await s.api("GET", "/api/auth/me", { token: user.token });
    expect(me.body.user?.email_verified).toBe(false);

    const verified = await s.api("POST", "/api/auth/verify-email", { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ success: true, user: { id: user.id, email_verified: true } });
    expect(await meStatus(s, { apiKey: key })).toBe(200);
    expect(await meStatus(s, { token: user.token })).toBe(200);
    expect((await s.api("POST", "/api/auth/verify-email", { body: { token } })).body.code).toBe(
      "verification_token_invalid",
    );
  });

  test("REQUIRE_VERIFIED_EMAIL is off by default: an unproven address makes keys, listings, messages", async () => {
    const author = await account(s, "author@acme.test", "author-password");
    const buyer = await account(s, "buyer@acme.test", "buyer-password");
    expect((await s.api("POST", "/api/keys", { token: author.token, body: {} })).status).toBe(200);
    const listing = await s.api("POST", "/api/listings", { token: author.token, body: LISTING });
    expect(listing.status).toBe(201);
    const message = await s.api("POST", "/api/messages", {
      token: buyer.token,
      body: { listing_id: String(listing.body.listing?.id), receiver_id: author.id, content: "Hello" },
    });
    expect(message.status).toBe(201);
  });
});

describe.each(BACKENDS)("REQUIRE_VERIFIED_EMAIL=true on %s", (backend) => {
  let s: Server;
  beforeAll(async () => {
    s = await open(backend, { REQUIRE_VERIFIED_EMAIL: "true" });
  });
  afterAll(() => s?.close());

  const unverified = { error: expect.stringMatching(/verify your email/i), code: "email_unverified" };

  test("keys, listings and messages need a proven address: 403 email_unverified before, allowed after", async () => {
    const author = await account(s, "author@acme.test", "author-password");
    const buyer = await account(s, "buyer@acme.test", "buyer-password");

    const key = await s.api("POST", "/api/keys", { token: author.token, body: {} });
    expect([key.status, key.body]).toEqual([403, unverified]);
    const refused = await s.api("POST", "/api/listings", { token: author.token, body: LISTING });
    expect([refused.status, refused.body]).toEqual([403, unverified]);

    const authorLink = await s.mailed("verify-email", "author@acme.test");
    expect((await s.api("POST", "/api/auth/verify-email", { body: { token: authorLink } })).status).toBe(200);
    expect((await s.api("POST", "/api/keys", { token: author.token, body: {} })).status).toBe(200);
    const listing = await s.api("POST", "/api/listings", { token: author.token, body: LISTING });
    expect(listing.status).toBe(201);

    const message = {
      token: buyer.token,
      body: { listing_id: String(listing.body.listing?.id), receiver_id: author.id, content: "Hello" },
    };
    const early = await s.api("POST", "/api/messages", message);
    expect([early.status, early.body]).toEqual([403, unverified]);
    const buyerLink = await s.mailed("verify-email", "buyer@acme.test");
    expect((await s.api("POST", "/api/auth/verify-email", { body: { token: buyerLink } })).status).toBe(200);
    expect((await s.api("POST", "/api/messages", message)).status).toBe(201);
  });
});
