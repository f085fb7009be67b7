import { sha256Hex } from "@psm/core";
import { describe, expect, it } from "vitest";
import {
  expectCode,
  setup as kitSetup,
  KIT_PASSWORD as PASSWORD,
  type UseCaseKit,
  untyped,
} from "../../testing/use-case-kit.js";

const HOUR = 60 * 60 * 1000;

/** The kit's marketplace, whose PUBLIC_URL the mailed links carry. */
function setup() {
  return kitSetup({ publicUrl: "https://market.example.com" });
}

/** The token of the n-th verification mail delivered. */
function verificationToken({ deps }: UseCaseKit, n = 0): string {
  const mail = deps.mailer.ofKind("email_verification")[n];
  if (!mail) throw new Error(`no verification mail #${n} was sent`);
  return new URL(mail.verifyUrl).searchParams.get("token") ?? "";
}

async function signedUp(email = "new@example.com") {
  const s = setup();
  const account = await s.signUpAndLogIn(email);
  await s.market.mail.dispatchDue();
  return { ...s, ...account, token: verificationToken(s), jwt: account.token };
}

describe("the verification mail sent at sign-up", () => {
  it("is queued at sign-up and carries a 24-hour link under PUBLIC_URL", async () => {
    const s = setup();
    await s.market.auth.signUp({ email: "New@Example.com", password: PASSWORD });
    expect(s.deps.mailer.sent).toEqual([]);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(s.deps.mailer.sent).toEqual([
      {
        kind: "email_verification",
        to: "new@example.com",
        displayName: expect.stringMatching(/^Member [0-9a-f]{6}$/),
        verifyUrl: expect.stringMatching(/^https:\/\/market\.example\.com\/verify-email\?token=[\w-]{43}$/),
        expiresInHours: 24,
      },
    ]);
  });

  it("stores only a digest of the token, among verification tokens, not reset tokens", async () => {
    const s = await signedUp();
    const now = s.deps.clock.now();
    expect(await s.deps.repos.verificationTokens.isValid(s.token, now)).toBe(false);
    expect(await s.deps.repos.verificationTokens.isValid(sha256Hex(s.token), now)).toBe(true);
    expect(await s.deps.repos.resetTokens.isValid(sha256Hex(s.token), now)).toBe(false);
    await expectCode(
      s.market.auth.updatePassword({ token: s.token, newPassword: "hijacked-pass" }),
      "reset_token_invalid",
    );
  });
});

describe("auth.verifyEmail", () => {
  it("proves the address once; the token is then spent", async () => {
    const s = await signedUp();
    await expect(s.market.auth.me(s.actor)).resolves.toMatchObject({ emailVerified: false });
    await expect(s.market.auth.checkVerificationToken({ token: s.token })).resolves.toBe(true);
    const user = await s.market.auth.verifyEmail({ token: s.token });
    expect(user).toMatchObject({ id: s.user.id, emailVerified: true });
    expect((await s.deps.repos.users.findById(s.user.id))?.emailVerifiedAt).toEqual(s.deps.clock.now());
    await expectCode(s.market.auth.verifyEmail({ token: s.token }), "verification_token_invalid");
    await expect(s.market.auth.checkVerificationToken({ token: s.token })).resolves.toBe(false);
  });

  it("expires after 24 hours", async () => {
    const s = await signedUp();
    s.deps.clock.advance(24 * HOUR - 1000);
    await expect(s.market.auth.checkVerificationToken({ token: s.token })).resolves.toBe(true);
    s.deps.clock.advance(2000);
    await expect(s.market.auth.checkVerificationToken({ token: s.token })).resolves.toBe(false);
    await expectCode(s.market.auth.verifyEmail({ token: s.token }), "verification_token_invalid");
    expect((await s.deps.repos.users.findById(s.user.id))?.emailVerifiedAt).toBeNull();
  });

  it("checking a token consumes nothing (the page's GET)", async () => {
    const s = await signedUp();
    for (let i = 0; i < 3; i++)
      await expect(s.market.auth.checkVerificationToken({ token: s.token })).resolves.toBe(true);
    await expect(s.market.auth.verifyEmail({ token: s.token })).resolves.toMatchObject({
      emailVerified: true,
    });
  });

  it("refuses an unknown token with its own code and a missing one as invalid input", async () => {
    const s = await signedUp();
    await expectCode(s.market.auth.verifyEmail({ token: "made-up" }), "verification_token_invalid");
    await expectCode(s.market.auth.verifyEmail(untyped({})), "invalid_input");
    await expectCode(s.market.auth.verifyEmail({ token: "x".repeat(513) }), "invalid_input");
    await expect(s.market.auth.checkVerificationToken({ token: "" })).resolves.toBe(false);
  });

  it("ends nothing: the JWT and the API keys made before it keep working", async () => {
    const s = await signedUp();
    const { secret } = await s.market.apiKeys.create(s.actor, {});
    await s.market.auth.verifyEmail({ token: s.token });
    await expect(s.market.auth.authenticate({ bearer: s.jwt })).resolves.toMatchObject({ kind: "user" });
    await expect(s.market.auth.authenticate({ apiKey: secret })).resolves.toMatchObject({ kind: "user" });
  });

  it("keeps the first proof when an address proven by a reset is verified later", async () => {
    const s = await signedUp("proven@example.com");
    await s.market.auth.requestPasswordReset({ email: "proven@example.com" });
    await s.market.mail.dispatchDue();
    const resetUrl = s.deps.mailer.ofKind("password_reset")[0]?.resetUrl ?? "";
    await s.market.auth.updatePassword({
      token: new URL(resetUrl).searchParams.get("token") ?? "",
      newPassword: "owner-password",
    });
    const provenAt = (await s.deps.repos.users.findById(s.user.id))?.emailVerifiedAt;
    expect(provenAt).toEqual(s.deps.clock.now());
    s.deps.clock.advance(HOUR);
    await expect(s.market.auth.verifyEmail({ token: s.token })).resolves.toMatchObject({
      emailVerified: true,
    });
    expect((await s.deps.repos.users.findById(s.user.id))?.emailVerifiedAt).toEqual(provenAt);
  });
});
