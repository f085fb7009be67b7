/**
 * OWASP API2:2023 Broken Authentication. Forged, altered, expired and
 * premature JWTs; tokens and keys of deleted users; deactivated and near-miss
 * API keys; and login that does the same hashing work for unknown addresses.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { claimsOf, signJwt, tamperedJwt, unsignedJwt } from "./support/jwt.js";
import { type Session, type Target, target } from "./support/target.js";

let t: Target;
let user: Session;

beforeEach(async () => {
  t = target();
  user = await t.signUp();
});

/** 401 {error, code} on a route that needs a credential and on a public one. */
async function expectRejected(
  auth: { token?: string; key?: string },
  code = "unauthenticated",
): Promise<void> {
  for (const path of ["/api/keys", "/api/listings"]) {
    const res = await t.request("GET", path, auth);
    expect(res.status, path).toBe(401);
    expect(await res.json()).toMatchObject({ code });
  }
}

describe("JWT", () => {
  test("the genuine token works (so the rejections below mean something)", async () => {
    expect((await t.request("GET", "/api/keys", { token: user.token })).status).toBe(200);
  });

  test("alg none is refused", async () => {
    await expectRejected({ token: unsignedJwt(claimsOf(user.token)) });
    await expectRejected({ token: `${unsignedJwt(claimsOf(user.token))}AAAA` });
  });

  test("a token signed with another key, or HS256 headers claiming other algorithms, is refused", async () => {
    await expectRejected({ token: signJwt(claimsOf(user.token), { secret: "x".repeat(40) }) });
    for (const alg of ["HS512", "RS256", "none", "NONE"]) {
      await expectRejected({ token: signJwt(claimsOf(user.token), { header: { alg, typ: "JWT" } }) });
    }
  });

  test("an altered payload (is_admin flipped, another subject) keeps no valid signature", async () => {
    const admin = await t.admin();
    await expectRejected({ token: tamperedJwt(user.token, { is_admin: true }) });
    await expectRejected({ token: tamperedJwt(user.token, { sub: admin.id, id: admin.id }) });
    const forged = tamperedJwt(user.token, { is_admin: true });
    expect((await t.request("GET", "/api/admin/users", { token: forged })).status).toBe(401);
  });

  test("a correctly signed is_admin claim grants nothing: rights are read from storage", async () => {
    const claims = claimsOf(user.token);
    const selfPromoted = signJwt({ ...claims, is_admin: true });
    expect((await t.request("GET", "/api/admin/users", { token: selfPromoted })).status).toBe(403);
  });

  test("expired and not-yet-valid tokens are refused", async () => {
    const claims = claimsOf(user.token);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    await expectRejected({ token: signJwt({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 1 }) });
    await expectRejected({ token: signJwt({ ...claims, iat: now, nbf: now + 3600, exp: now + 7200 }) });
    await expectRejected({ token: signJwt({ ...claims, exp: undefined }) });
    t.clock.advance(8 * 24 * 3600 * 1000);
    await expectRejected({ token: user.token });
  });

  test("a deleted user's token and key stop working at once", async () => {
    const { key } = await t.apiKey(user);
    const admin = await t.admin();
    expect((await t.request("DELETE", `/api/admin/users/${user.id}`, { token: admin.token })).status).toBe(
      200,
    );
    await expectRejected({ token: user.token });
    await expectRejected({ key });
  });
});

describe("API keys", () => {
  test("a deactivated key is refused", async () => {
    const created = await t.apiKey(user);
    expect((await t.request("GET", "/api/keys", { key: created.key })).status).toBe(200);
    await t.request("DELETE", `/api/keys/${created.id}`, { token: user.token });
    await expectRejected({ key: created.key }, "api_key_revoked");
  });

  test("near-miss values are refused: one hex digit changed, uppercase, wrong prefix, 63 or 65 digits", async () => {
    const { key } = await t.apiKey(user);
    const last = key.at(-1) === "0" ? "1" : "0";
    const nearMisses = [
      `${key.slice(0, -1)}${last}`,
      key.toUpperCase(),
      `PSM_${key.slice(4)}`,
      `pms_${key.slice(4)}`,
      key.slice(4),
      key.slice(0, -1),
      `${key}0`,
      ` ${key}x`,
    ];
    for (const value of nearMisses) await expectRejected({ key: value });
    expect((await t.request("GET", "/api/keys", { key })).status).toBe(200);
  });

  test("a valid key beside another user's token is refused", async () => {
    const other = await t.signUp();
    const { key } = await t.apiKey(user);
    await expectRejected({ key, token: other.token });
  });
});

describe("login", () => {
  test("an unknown address costs the same password verification as a wrong password", async () => {
    const before = t.hasher.calls.verify;
    const wrong = await t.request("POST", "/api/auth/login", {
      body: { email: user.email, password: "not-the-password" },
    });
    const afterKnown = t.hasher.calls.verify;
    const unknown = await t.request("POST", "/api/auth/login", {
      body: { email: "nobody@example.com", password: "not-the-password" },
    });
    const afterUnknown = t.hasher.calls.verify;
    expect(afterKnown - before).toBe(1);
    expect(afterUnknown - afterKnown).toBe(1);
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await unknown.json()).toEqual(await wrong.json());
  });

  test("a password-less account (created by profile sync) cannot log in with any password", async () => {
    const admin = await t.admin();
    const id = "01900000-0000-7000-8000-0000000000aa";
    await t.request("POST", "/api/profiles/sync", {
      token: admin.token,
      body: { id, email: "ghost@example.com" },
    });
    for (const password of ["", "x", "password", "null"]) {
      const res = await t.request("POST", "/api/auth/login", {
        body: { email: "ghost@example.com", password },
      });
      expect([400, 401]).toContain(res.status);
    }
  });
});
