import { ANONYMOUS, sha256Hex } from "@psm/core";
import { describe, expect, it } from "vitest";
import { expectCode, KIT_PASSWORD, setup } from "../../testing/use-case-kit.js";
import { SESSION_TTL_MS } from "./sessions.js";

describe("sessions", () => {
  it("opens a session for a password sign-in, stores only its digest, and resumes it as that user", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("a@example.com");
    const { token, expiresAt } = await market.sessions.open(actor);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime() - deps.clock.now().getTime()).toBe(SESSION_TTL_MS);
    expect(await deps.repos.sessions.find(sha256Hex(token), deps.clock.now())).toMatchObject({
      userId: user.id,
    });
    const resumed = await market.sessions.resume(token);
    expect(resumed).toMatchObject({ kind: "user", via: "session", user: { id: user.id } });
  });

  it("an API key cannot open a session, nor can an anonymous caller", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("b@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expectCode(market.sessions.open(keyActor), "unauthenticated");
    await expectCode(market.sessions.open(ANONYMOUS), "unauthenticated");
  });

  it("ends at close, at expiry, at a password change and when the user is deleted", async () => {
    const { deps, market, signUpAndLogIn, logInAdmin } = setup();
    const { user, actor } = await signUpAndLogIn("c@example.com");
    const closed = await market.sessions.open(actor);
    await market.sessions.close(closed.token);
    expect(await market.sessions.resume(closed.token)).toEqual(ANONYMOUS);

    const expiring = await market.sessions.open(actor);
    deps.clock.advance(SESSION_TTL_MS);
    expect(await market.sessions.resume(expiring.token)).toEqual(ANONYMOUS);

    const kept = await market.sessions.open(actor);
    const sessionActor = await market.sessions.resume(kept.token);
    await market.auth.changePassword(sessionActor, {
      currentPassword: KIT_PASSWORD,
      newPassword: "another-password",
    });
    expect(await market.sessions.resume(kept.token)).toEqual(ANONYMOUS);

    const fresh = await signUpAndLogIn("d@example.com");
    const doomed = await market.sessions.open(fresh.actor);
    const admin = await logInAdmin();
    expect(admin.user.id).not.toBe(user.id);
    await market.admin.deleteUser(admin.actor, { userId: fresh.user.id });
    expect(await market.sessions.resume(doomed.token)).toEqual(ANONYMOUS);
  });

  it("malformed and unknown tokens resume as anonymous without a lookup error", async () => {
    const { market } = setup();
    for (const token of ["", "x", "a".repeat(43), "é".repeat(43), "a".repeat(10_000)]) {
      expect(await market.sessions.resume(token)).toEqual(ANONYMOUS);
      await market.sessions.close(token);
    }
  });
});

describe("auth.changePassword", () => {
  it("needs the current password, ends earlier JWTs, and the new password logs in", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor, token } = await signUpAndLogIn("e@example.com");
    await expectCode(
      market.auth.changePassword(actor, { currentPassword: "wrong-password", newPassword: "new-password" }),
      "invalid_credentials",
    );
    await expectCode(
      market.auth.changePassword(actor, { currentPassword: KIT_PASSWORD, newPassword: "short" }),
      "invalid_input",
    );
    await market.auth.changePassword(actor, { currentPassword: KIT_PASSWORD, newPassword: "new-password" });
    await expectCode(market.auth.authenticate({ bearer: token }), "unauthenticated");
    await expectCode(
      market.auth.logIn({ email: "e@example.com", password: KIT_PASSWORD }),
      "invalid_credentials",
    );
    await expect(
      market.auth.logIn({ email: "e@example.com", password: "new-password" }),
    ).resolves.toHaveProperty("token");
  });

  it("refuses API-key and anonymous callers", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("f@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    const command = { currentPassword: KIT_PASSWORD, newPassword: "new-password" };
    await expectCode(market.auth.changePassword(keyActor, command), "unauthenticated");
    await expectCode(market.auth.changePassword(ANONYMOUS, command), "unauthenticated");
  });
});
