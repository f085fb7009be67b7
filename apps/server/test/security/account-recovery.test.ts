/**
 * Account pre-hijacking (OWASP API2, broken authentication): anyone can sign
 * up with an address they do not own and arm the account with API keys (and
 * keys that mint keys) before its owner shows up. When the owner recovers the
 * account through the reset mail, every credential the intruder held must
 * die. Proven on the composed server (apps/server, as `pnpm start` runs it),
 * on SQLite and on PostgreSQL, with the tokens read from the mail it writes.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createKey, signUpAndLogIn, updatePassword } from "../support/accounts.js";
import { BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { type Deployment, deploy } from "../support/deployment.js";

/** Signs up and logs in; answers the JWT and the user as the wire shows it. */
const account = (s: Deployment, email: string, password: string) => signUpAndLogIn(s.url, email, password);

/** Mints a key with a JWT or with another key. */
async function mintKey(s: Deployment, credential: { token?: string; apiKey?: string }): Promise<string> {
  return (await createKey(s.url, credential, "minted")).key;
}

/** The status GET /api/auth/me answers for a credential. */
async function meStatus(s: Deployment, credential: { token?: string; apiKey?: string }): Promise<number> {
  return (await s.api.get("/api/auth/me", credential)).status;
}

/** Asks for a reset mail to `email` and sets `password` with its token. */
async function recover(s: Deployment, email: string, password: string): Promise<void> {
  expect((await s.api.post("/api/auth/reset-password", { body: { email } })).status).toBe(200);
  const token = await s.mailed("reset-password", email);
  const res = await updatePassword(s.url, token, password);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const LISTING = { title: "Audit", description: "A careful audit", category: "cybersecurity" };

reportSkippedPostgres("account recovery");

describe.each(BACKENDS)("account recovery on %s", (backend) => {
  let s: Deployment;
  beforeAll(async () => {
    s = await deploy(backend);
  });
  afterAll(() => s?.stop());

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
    expect((await s.api.post("/api/keys", { apiKey: byKey, body: {} })).status).toBe(401);
    const intruderLogin = await s.api.post("/api/auth/login", {
      body: { email, password: "intruder-pass" },
    });
    expect(intruderLogin.status).toBe(401);
    const owner = await s.api.post("/api/auth/login", { body: { email, password: "owner-password" } });
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
    const me = await s.api.get("/api/auth/me", { token: user.token });
    expect(me.body.user?.email_verified).toBe(false);

    const verified = await s.api.post("/api/auth/verify-email", { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ success: true, user: { id: user.id, email_verified: true } });
    expect(await meStatus(s, { apiKey: key })).toBe(200);
    expect(await meStatus(s, { token: user.token })).toBe(200);
    expect((await s.api.post("/api/auth/verify-email", { body: { token } })).body.code).toBe(
      "verification_token_invalid",
    );
  });

  test("REQUIRE_VERIFIED_EMAIL is off by default: an unproven address makes keys, listings, messages", async () => {
    const author = await account(s, "author@acme.test", "author-password");
    const buyer = await account(s, "buyer@acme.test", "buyer-password");
    expect((await s.api.post("/api/keys", { token: author.token, body: {} })).status).toBe(200);
    const listing = await s.api.post("/api/listings", { token: author.token, body: LISTING });
    expect(listing.status).toBe(201);
    const message = await s.api.post("/api/messages", {
      token: buyer.token,
      body: { listing_id: String(listing.body.listing?.id), receiver_id: author.id, content: "Hello" },
    });
    expect(message.status).toBe(201);
  });
});

describe.each(BACKENDS)("REQUIRE_VERIFIED_EMAIL=true on %s", (backend) => {
  let s: Deployment;
  beforeAll(async () => {
    s = await deploy(backend, { env: { REQUIRE_VERIFIED_EMAIL: "true" } });
  });
  afterAll(() => s?.stop());

  const unverified = { error: expect.stringMatching(/verify your email/i), code: "email_unverified" };

  test("keys, listings and messages need a proven address: 403 email_unverified before, allowed after", async () => {
    const author = await account(s, "author@acme.test", "author-password");
    const buyer = await account(s, "buyer@acme.test", "buyer-password");

    const key = await s.api.post("/api/keys", { token: author.token, body: {} });
    expect([key.status, key.body]).toEqual([403, unverified]);
    const refused = await s.api.post("/api/listings", { token: author.token, body: LISTING });
    expect([refused.status, refused.body]).toEqual([403, unverified]);

    const authorLink = await s.mailed("verify-email", "author@acme.test");
    expect((await s.api.post("/api/auth/verify-email", { body: { token: authorLink } })).status).toBe(200);
    expect((await s.api.post("/api/keys", { token: author.token, body: {} })).status).toBe(200);
    const listing = await s.api.post("/api/listings", { token: author.token, body: LISTING });
    expect(listing.status).toBe(201);

    const message = {
      token: buyer.token,
      body: { listing_id: String(listing.body.listing?.id), receiver_id: author.id, content: "Hello" },
    };
    const early = await s.api.post("/api/messages", message);
    expect([early.status, early.body]).toEqual([403, unverified]);
    const buyerLink = await s.mailed("verify-email", "buyer@acme.test");
    expect((await s.api.post("/api/auth/verify-email", { body: { token: buyerLink } })).status).toBe(200);
    expect((await s.api.post("/api/messages", message)).status).toBe(201);
  });
});
