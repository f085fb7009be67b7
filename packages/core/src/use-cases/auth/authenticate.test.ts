import { createJwtTokenService } from "@psm/core";
import { describe, expect, it } from "vitest";
import { expectCode, setup } from "../../testing/use-case-kit.js";
import { decodePayload, encodePart } from "./jwt-test-support.js";

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

describe("auth.authenticate", () => {
  it("is anonymous without credentials", async () => {
    const { market } = setup();
    await expect(market.auth.authenticate({})).resolves.toEqual({ kind: "anonymous" });
  });

  it("resolves a JWT and an API key to their user", async () => {
    const { market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("jane@example.com");
    expect(actor).toMatchObject({ kind: "user", via: "jwt", user: { id: user.id } });
    const { secret, apiKey } = await market.apiKeys.create(actor, {});
    await expect(market.auth.authenticate({ apiKey: secret })).resolves.toMatchObject({
      kind: "user",
      via: "api_key",
      keyId: apiKey.id,
      user: { id: user.id },
    });
  });

  it("refuses malformed, unknown and deactivated API keys", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("kim@example.com");
    await expectCode(market.auth.authenticate({ apiKey: "psm_123" }), "unauthenticated");
    await expectCode(market.auth.authenticate({ apiKey: `PSM_${"a".repeat(64)}` }), "unauthenticated");
    await expectCode(market.auth.authenticate({ apiKey: "" }), "unauthenticated");
    await expectCode(market.auth.authenticate({ apiKey: `psm_${"a".repeat(64)}` }), "unauthenticated");

    const { secret, apiKey } = await market.apiKeys.create(actor, {});
    await market.apiKeys.deactivate(actor, { id: apiKey.id });
    await expectCode(market.auth.authenticate({ apiKey: secret }), "api_key_revoked");
  });

  it("answers the same from a storage that reads a key and its user in two calls (no findByHashWithUser)", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const keys = deps.repos.apiKeys as { findByHashWithUser?: unknown };
    expect(keys.findByHashWithUser).toBeTypeOf("function");
    delete keys.findByHashWithUser;
    const { user, actor } = await signUpAndLogIn("ann@example.com");
    const { secret, apiKey } = await market.apiKeys.create(actor, { scopes: ["messages:read"] });
    await expect(market.auth.authenticate({ apiKey: secret })).resolves.toMatchObject({
      via: "api_key",
      keyId: apiKey.id,
      user: { id: user.id },
      scopes: ["messages:read"],
    });
    await expectCode(market.auth.authenticate({ apiKey: `psm_${"a".repeat(64)}` }), "unauthenticated");
    await market.apiKeys.deactivate(actor, { id: apiKey.id });
    await expectCode(market.auth.authenticate({ apiKey: secret }), "api_key_revoked");
  });

  it("refuses the key and the JWT of a deleted user", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup();
    const admin = (await logInAdmin()).actor;
    const { user, token, actor } = await signUpAndLogIn("leo@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    await market.admin.deleteUser(admin, { userId: user.id });
    await expectCode(market.auth.authenticate({ apiKey: secret }), "unauthenticated");
    await expectCode(market.auth.authenticate({ bearer: token }), "unauthenticated");
  });

  it("refuses a JWT issued before a password reset", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { token } = await signUpAndLogIn("mia@example.com");
    await market.auth.requestPasswordReset({ email: "mia@example.com" });
    await market.mail.dispatchDue();
    const resetUrl = deps.mailer.ofKind("password_reset")[0]?.resetUrl ?? "";
    const resetToken = new URL(resetUrl).searchParams.get("token") ?? "";
    await market.auth.updatePassword({ token: resetToken, newPassword: "brand-new-password" });

    await expectCode(market.auth.authenticate({ bearer: token }), "unauthenticated");
    const fresh = await market.auth.logIn({ email: "mia@example.com", password: "brand-new-password" });
    await expect(market.auth.authenticate({ bearer: fresh.token })).resolves.toMatchObject({ kind: "user" });
  });

  it("refuses an expired JWT (7 days + 1 s) and accepts it just before", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { token } = await signUpAndLogIn("nia@example.com");
    deps.clock.advance(7 * DAY - SECOND);
    await expect(market.auth.authenticate({ bearer: token })).resolves.toMatchObject({ kind: "user" });
    deps.clock.advance(2 * SECOND);
    await expectCode(market.auth.authenticate({ bearer: token }), "unauthenticated");
  });

  it("refuses tampered, foreign-signed and malformed JWTs", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, token } = await signUpAndLogIn("omar@example.com");
    const [header, payload, signature] = token.split(".");
    const claims = decodePayload(token);
    const tampered = `${header}.${encodePart({ ...claims, is_admin: true })}.${signature}`;
    await expectCode(market.auth.authenticate({ bearer: tampered }), "unauthenticated");
    const badSignature = `${header}.${payload}.${(signature ?? "").slice(0, -4)}AAAA`;
    await expectCode(market.auth.authenticate({ bearer: badSignature }), "unauthenticated");

    const foreign = await createJwtTokenService("another-secret-that-is-long-enough!!", deps.clock).issue({
      sub: user.id,
      email: user.email,
      isAdmin: true,
      version: 0,
    });
    await expectCode(market.auth.authenticate({ bearer: foreign }), "unauthenticated");

    const unsigned = `${encodePart({ alg: "none", typ: "JWT" })}.${payload}.`;
    await expectCode(market.auth.authenticate({ bearer: unsigned }), "unauthenticated");
    await expectCode(market.auth.authenticate({ bearer: "not-a-jwt" }), "unauthenticated");
    await expectCode(market.auth.authenticate({ bearer: "" }), "unauthenticated");
  });

  it("reads admin rights from storage, not from the token", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, token } = await signUpAndLogIn("pia@example.com");
    await deps.repos.users.updateProfile(user.id, { isAdmin: true });
    const actor = await market.auth.authenticate({ bearer: token });
    expect(actor).toMatchObject({ kind: "user", user: { id: user.id, isAdmin: true } });
    expect(decodePayload(token).is_admin).toBe(false);
  });
});
