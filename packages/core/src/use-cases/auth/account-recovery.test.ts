import { describe, expect, it } from "vitest";
import { expectCode, KIT_PASSWORD as PASSWORD, setup, type UseCaseKit } from "../../testing/use-case-kit.js";

/** Requests a reset for `email`, sends it and answers the token of the newest reset mail. */
async function mailedResetToken({ deps, market }: UseCaseKit, email: string): Promise<string> {
  await market.auth.requestPasswordReset({ email });
  await market.mail.dispatchDue();
  const resetUrl = deps.mailer.ofKind("password_reset").at(-1)?.resetUrl ?? "";
  return new URL(resetUrl).searchParams.get("token") ?? "";
}

describe("a completed reset of an address never proven", () => {
  it("ends every key the squatter minted, keys minted by keys included, and the JWT", async () => {
    const s = setup();
    // The intruder registers an address they do not own and arms the account.
    const intruder = await s.signUpAndLogIn("owner@example.com", "intruder-pass");
    const first = await s.market.apiKeys.create(intruder.actor, { name: "first" });
    const keyActor = await s.market.auth.authenticate({ apiKey: first.secret });
    const second = await s.market.apiKeys.create(keyActor, { name: "minted by a key" });

    // The owner recovers the account through the reset mail.
    const token = await mailedResetToken(s, "owner@example.com");
    await s.market.auth.updatePassword({ token, newPassword: "owner-password" });

    await expectCode(s.market.auth.authenticate({ apiKey: first.secret }), "api_key_revoked");
    await expectCode(s.market.auth.authenticate({ apiKey: second.secret }), "api_key_revoked");
    await expectCode(s.market.auth.authenticate({ bearer: intruder.token }), "unauthenticated");
    await expectCode(
      s.market.auth.logIn({ email: "owner@example.com", password: "intruder-pass" }),
      "invalid_credentials",
    );
    const owner = await s.market.auth.logIn({ email: "owner@example.com", password: "owner-password" });
    expect(owner.user).toMatchObject({ id: intruder.user.id, emailVerified: true });
  });

  it("spares keys made after the address was proven, at a later reset", async () => {
    const s = setup();
    await s.market.auth.signUp({ email: "owner@example.com", password: PASSWORD });
    await s.market.auth.updatePassword({
      token: await mailedResetToken(s, "owner@example.com"),
      newPassword: "owner-password",
    });
    const { token } = await s.market.auth.logIn({ email: "owner@example.com", password: "owner-password" });
    const owner = await s.market.auth.authenticate({ bearer: token });
    const { secret } = await s.market.apiKeys.create(owner, {});

    s.deps.clock.advance(2 * 60 * 60 * 1000);
    await s.market.auth.updatePassword({
      token: await mailedResetToken(s, "owner@example.com"),
      newPassword: "newer-password",
    });
    await expect(s.market.auth.authenticate({ apiKey: secret })).resolves.toMatchObject({ kind: "user" });
    await expectCode(s.market.auth.authenticate({ bearer: token }), "unauthenticated");
  });

  it("spares the keys of an address proven by the sign-up link", async () => {
    const s = setup();
    const account = await s.signUpAndLogIn("linked@example.com");
    await s.market.mail.dispatchDue();
    const verifyUrl = s.deps.mailer.ofKind("email_verification")[0]?.verifyUrl ?? "";
    await s.market.auth.verifyEmail({ token: new URL(verifyUrl).searchParams.get("token") ?? "" });
    const { secret } = await s.market.apiKeys.create(account.actor, {});
    await s.market.auth.updatePassword({
      token: await mailedResetToken(s, "linked@example.com"),
      newPassword: "owner-password",
    });
    await expect(s.market.auth.authenticate({ apiKey: secret })).resolves.toMatchObject({ kind: "user" });
  });

  it("ends a key whose creation began before the reset and was stored after it", async () => {
    const s = setup();
    const intruder = await s.signUpAndLogIn("race@example.com", "intruder-pass");
    const armed = await s.market.apiKeys.create(intruder.actor, {});
    // Both actors were authenticated before the reset; their requests finish after it.
    const viaKey = await s.market.auth.authenticate({ apiKey: armed.secret });
    await s.market.auth.updatePassword({
      token: await mailedResetToken(s, "race@example.com"),
      newPassword: "owner-password",
    });
    for (const stale of [intruder.actor, viaKey]) {
      await expectCode(s.market.apiKeys.create(stale, { name: "late" }), "unauthenticated");
    }
    // Refused before they are stored: only the armed key exists, and it is ended.
    const keys = await s.deps.repos.apiKeys.list(intruder.user.id, { limit: 10 });
    expect(keys.map((key) => [key.id, key.isActive])).toEqual([[armed.apiKey.id, false]]);
  });
});

describe("a reset ends the squatter's keys however the owner came back", () => {
  it("ends a key minted by a key the reset ended, though its maker read the user after the reset", async () => {
    const s = setup();
    const intruder = await s.signUpAndLogIn("late@example.com", "intruder-pass");
    const armed = await s.market.apiKeys.create(intruder.actor, {});
    const viaKey = await s.market.auth.authenticate({ apiKey: armed.secret });
    await s.market.auth.updatePassword({
      token: await mailedResetToken(s, "late@example.com"),
      newPassword: "owner-password",
    });
    // Authentication read the key before the reset and the user after it: the new token version.
    const user = await s.deps.repos.users.findById(intruder.user.id);
    if (viaKey.kind !== "user" || !user) throw new Error("the intruder's key did not authenticate");
    await expectCode(s.market.apiKeys.create({ ...viaKey, user }, { name: "late" }), "unauthenticated");
    const keys = await s.deps.repos.apiKeys.list(intruder.user.id, { limit: 10 });
    expect(keys.filter((key) => key.isActive)).toEqual([]);
  });

  it("ends the keys made before the sign-up link proved the address", async () => {
    const s = setup();
    const intruder = await s.signUpAndLogIn("followed@example.com", "intruder-pass");
    const before = await s.market.apiKeys.create(intruder.actor, { name: "before the proof" });
    // The owner follows the sign-up link the intruder's registration mailed them, then resets.
    await s.market.mail.dispatchDue();
    const verifyUrl = s.deps.mailer.ofKind("email_verification")[0]?.verifyUrl ?? "";
    s.deps.clock.advance(1000);
    await s.market.auth.verifyEmail({ token: new URL(verifyUrl).searchParams.get("token") ?? "" });
    s.deps.clock.advance(1000);
    await s.market.auth.updatePassword({
      token: await mailedResetToken(s, "followed@example.com"),
      newPassword: "owner-password",
    });
    await expectCode(s.market.auth.authenticate({ apiKey: before.secret }), "api_key_revoked");
  });
});

describe("update-password spends no hashing on a bad token", () => {
  it("checks the token before hashing the new password", async () => {
    const s = setup();
    const { market } = s;
    const { hasher } = s.deps;
    await market.auth.signUp({ email: "cost@example.com", password: PASSWORD });
    const before = hasher.calls.hash;
    for (const token of ["made-up", "x".repeat(512)]) {
      await expectCode(
        market.auth.updatePassword({ token, newPassword: "any-password" }),
        "reset_token_invalid",
      );
    }
    expect(hasher.calls.hash - before).toBe(0);

    // An expired or used token costs nothing either; a good one costs one hash.
    const token = await mailedResetToken(s, "cost@example.com");
    await market.auth.updatePassword({ token, newPassword: "owner-password" });
    expect(hasher.calls.hash - before).toBe(1);
    await expectCode(
      market.auth.updatePassword({ token, newPassword: "again-password" }),
      "reset_token_invalid",
    );
    expect(hasher.calls.hash - before).toBe(1);
  });
});
