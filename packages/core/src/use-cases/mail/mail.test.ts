import { createMarketplace, MAIL_RETRY, type Settings, sha256Hex } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { expectCode, KIT_PASSWORD as PASSWORD, untyped } from "../../testing/use-case-kit.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function setup(settings: Partial<Settings> = {}) {
  const deps = createTestDeps({ settings: { publicUrl: "https://market.example.com", ...settings } });
  return { deps, market: createMarketplace(deps) };
}

type Setup = ReturnType<typeof setup>;

/** The token of the n-th recorded reset mail (0-based). */
function tokenOf({ deps }: Setup, n = 0): string {
  const mail = deps.mailer.ofKind("password_reset")[n];
  if (!mail) throw new Error(`no reset mail #${n} was sent`);
  const token = new URL(mail.resetUrl).searchParams.get("token");
  if (!token) throw new Error("the reset URL carries no token");
  return token;
}

/** Signs up, then sends and forgets the sign-up's verification mail: these tests count reset mail. */
async function signUpQuietly(s: Setup, email: string) {
  const user = await s.market.auth.signUp({ email, password: PASSWORD });
  await s.market.mail.dispatchDue();
  s.deps.mailer.sent.length = 0;
  return user;
}

async function withUser(settings: Partial<Settings> = {}) {
  const s = setup(settings);
  const user = await signUpQuietly(s, "reset@example.com");
  return { ...s, user };
}

describe("auth.requestPasswordReset", () => {
  it("queues nothing for an unknown address and returns normally", async () => {
    const { deps, market } = setup();
    await expect(market.auth.requestPasswordReset({ email: "nobody@example.com" })).resolves.toBeUndefined();
    await expect(market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(deps.mailer.sent).toEqual([]);
  });

  it("answers without storage; the round queues the mail, and keeps the requests through a storage failure", async () => {
    const s = await withUser();
    const { users } = s.deps.repos;
    let down = false;
    // Storage that fails on every user lookup while `down`.
    s.deps.repos.users = {
      ...users,
      findByEmail: (email) =>
        down ? Promise.reject(new Error("database is down")) : users.findByEmail(email),
    };
    down = true;
    await expect(s.market.auth.requestPasswordReset({ email: "reset@example.com" })).resolves.toBeUndefined();
    await expect(
      s.market.auth.requestPasswordReset({ email: "nobody@example.com" }),
    ).resolves.toBeUndefined();
    await expect(s.market.mail.dispatchDue()).rejects.toThrow("database is down");
    expect(s.deps.mailer.sent).toEqual([]);

    down = false;
    await s.market.mail.dispatchDue();
    expect(resetMailsTo(s)).toEqual(["reset@example.com"]);
  });

  it("counts the hour of the per-address limit from the requests, not from the round", async () => {
    const s = await withUser();
    for (let i = 0; i < 3; i++) await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    s.deps.clock.advance(HOUR + MINUTE);
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    expect(resetMailsTo(s)).toHaveLength(4);
  });

  it("refuses a missing or malformed address", async () => {
    const { market } = setup();
    await expectCode(market.auth.requestPasswordReset(untyped({})), "invalid_input");
    await expectCode(market.auth.requestPasswordReset({ email: "not-an-email" }), "invalid_input");
  });

  it("sends one mail with a reset link under the public URL, for any case of the address", async () => {
    const s = await withUser();
    await expect(
      s.market.auth.requestPasswordReset({ email: "  RESET@Example.com " }),
    ).resolves.toBeUndefined();
    expect(s.deps.mailer.sent).toEqual([]);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(s.deps.mailer.sent).toHaveLength(1);
    const mail = s.deps.mailer.ofKind("password_reset")[0];
    expect(mail).toMatchObject({ kind: "password_reset", to: "reset@example.com", expiresInMinutes: 60 });
    expect(mail?.resetUrl.startsWith(`${s.deps.settings.publicUrl}/reset-password?token=`)).toBe(true);
    expect(tokenOf(s)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Nothing more is due.
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(s.deps.mailer.sent).toHaveLength(1);
  });

  it("sends at most 3 mails per address per hour, silently", async () => {
    const s = await withUser();
    for (let i = 0; i < 4; i++) {
      await expect(
        s.market.auth.requestPasswordReset({ email: "reset@example.com" }),
      ).resolves.toBeUndefined();
    }
    await expect(s.market.mail.dispatchDue()).resolves.toMatchObject({ sent: 3 });
    expect(s.deps.mailer.sent).toHaveLength(3);
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    expect(s.deps.mailer.sent).toHaveLength(3);

    s.deps.clock.advance(HOUR + MINUTE);
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await expect(s.market.mail.dispatchDue()).resolves.toMatchObject({ sent: 1 });
    expect(s.deps.mailer.sent).toHaveLength(4);
  });

  it("stores only a digest of the token", async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    const token = tokenOf(s);
    // The raw token is not a key of the store; its SHA-256 is.
    expect(await s.deps.repos.resetTokens.isValid(token, s.deps.clock.now())).toBe(false);
    expect(await s.deps.repos.resetTokens.isValid(sha256Hex(token), s.deps.clock.now())).toBe(true);
    await expect(s.market.auth.checkResetToken({ token: token })).resolves.toBe(true);
  });
});

describe("auth.updatePassword", () => {
  it("sets the new password with a valid token, once", async () => {
    const s = await withUser();
    const { token: oldJwt } = await s.market.auth.logIn({ email: "reset@example.com", password: PASSWORD });
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    const token = tokenOf(s);

    await expect(
      s.market.auth.updatePassword({ token, newPassword: "brand-new-pass" }),
    ).resolves.toBeUndefined();
    await expectCode(
      s.market.auth.logIn({ email: "reset@example.com", password: PASSWORD }),
      "invalid_credentials",
    );
    await expect(
      s.market.auth.logIn({ email: "reset@example.com", password: "brand-new-pass" }),
    ).resolves.toHaveProperty("token");
    await expectCode(s.market.auth.authenticate({ bearer: oldJwt }), "unauthenticated");
    await expectCode(
      s.market.auth.updatePassword({ token, newPassword: "third-password" }),
      "reset_token_invalid",
    );
    await expect(s.market.auth.checkResetToken({ token: token })).resolves.toBe(false);
  });

  it("refuses a token after one hour", async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    const token = tokenOf(s);
    s.deps.clock.advance(59 * MINUTE);
    await expect(s.market.auth.checkResetToken({ token: token })).resolves.toBe(true);
    s.deps.clock.advance(2 * MINUTE);
    await expect(s.market.auth.checkResetToken({ token: token })).resolves.toBe(false);
    await expectCode(
      s.market.auth.updatePassword({ token, newPassword: "brand-new-pass" }),
      "reset_token_invalid",
    );
    await expect(
      s.market.auth.logIn({ email: "reset@example.com", password: PASSWORD }),
    ).resolves.toHaveProperty("token");
  });

  it("ends every outstanding token of the user", async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    expect(s.deps.mailer.sent).toHaveLength(2);
    const first = tokenOf(s, 0);
    const second = tokenOf(s, 1);
    expect(first).not.toBe(second);
    await s.market.auth.updatePassword({ token: second, newPassword: "brand-new-pass" });
    await expect(s.market.auth.checkResetToken({ token: first })).resolves.toBe(false);
    await expectCode(
      s.market.auth.updatePassword({ token: first, newPassword: "other-pass" }),
      "reset_token_invalid",
    );
  });

  it("does not touch other users' tokens", async () => {
    const s = await withUser();
    await signUpQuietly(s, "other@example.com");
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.auth.requestPasswordReset({ email: "other@example.com" });
    await s.market.mail.dispatchDue();
    const byRecipient = new Map(s.deps.mailer.sent.map((m, i) => [m.to, tokenOf(s, i)]));
    await s.market.auth.updatePassword({
      token: byRecipient.get("reset@example.com") ?? "",
      newPassword: "new-pass-1",
    });
    await expect(
      s.market.auth.checkResetToken({ token: byRecipient.get("other@example.com") ?? "" }),
    ).resolves.toBe(true);
  });

  it("refuses unknown tokens and passwords outside 6..1024 without burning a valid token", async () => {
    const s = await withUser();
    await expectCode(
      s.market.auth.updatePassword({ token: "made-up", newPassword: "brand-new-pass" }),
      "reset_token_invalid",
    );
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    const token = tokenOf(s);
    await expectCode(s.market.auth.updatePassword({ token, newPassword: "12345" }), "invalid_input");
    await expectCode(s.market.auth.updatePassword({ token, newPassword: "x".repeat(1025) }), "invalid_input");
    await expectCode(
      s.market.auth.updatePassword(untyped({ newPassword: "brand-new-pass" })),
      "invalid_input",
    );
    await expectCode(s.market.auth.updatePassword(untyped({ token })), "invalid_input");
    await expect(s.market.auth.checkResetToken({ token: token })).resolves.toBe(true);
    await s.market.auth.updatePassword({ token, newPassword: "x".repeat(1024) });
    await expect(
      s.market.auth.logIn({ email: "reset@example.com", password: "x".repeat(1024) }),
    ).resolves.toHaveProperty("token");
  });

  it("gives a password to a profile created by sync", async () => {
    const s = setup({ securityMode: "legacy" });
    await s.market.profiles.sync(
      { kind: "anonymous" },
      { id: crypto.randomUUID(), email: "synced@example.com" },
    );
    await s.market.auth.requestPasswordReset({ email: "synced@example.com" });
    await s.market.mail.dispatchDue();
    await s.market.auth.updatePassword({ token: tokenOf(s), newPassword: "first-password" });
    await expect(
      s.market.auth.logIn({ email: "synced@example.com", password: "first-password" }),
    ).resolves.toHaveProperty("token");
  });
});

describe("mail.dispatchDue", () => {
  it("reschedules a transient failure and later delivers exactly one mail with a working token", async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    s.deps.mailer.failNext(1);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(s.deps.mailer.sent).toEqual([]);
    // Not due again before the backoff has passed.
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });

    s.deps.clock.advance(MAIL_RETRY.baseDelayMs + 1);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 1, retried: 0, failed: 0 });
    s.deps.clock.advance(HOUR / 2);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(s.deps.mailer.sent).toHaveLength(1);
    await s.market.auth.updatePassword({ token: tokenOf(s), newPassword: "brand-new-pass" });
  });

  it("marks a permanent failure failed, with no retry", async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    s.deps.mailer.failNext(1, { permanent: true });
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 1 });
    s.deps.clock.advance(MAIL_RETRY.maxDelayMs + MAIL_RETRY.leaseMs);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(s.deps.mailer.sent).toEqual([]);
  });

  it(`gives up after ${MAIL_RETRY.maxAttempts} attempts`, async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    s.deps.mailer.failNext(1000);
    const totals = { sent: 0, retried: 0, failed: 0 };
    for (let round = 0; round < MAIL_RETRY.maxAttempts + 5; round++) {
      const report = await s.market.mail.dispatchDue();
      totals.sent += report.sent;
      totals.retried += report.retried;
      totals.failed += report.failed;
      s.deps.clock.advance(MAIL_RETRY.maxDelayMs + 1);
    }
    expect(totals).toEqual({ sent: 0, retried: MAIL_RETRY.maxAttempts - 1, failed: 1 });
    s.deps.mailer.failNext(0);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(s.deps.mailer.sent).toEqual([]);
  });

  it("leaves no usable token behind a failed attempt", async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    s.deps.mailer.failNext(1, { permanent: true });
    await s.market.mail.dispatchDue();
    // The digest table holds no token of this user: a new reset mints the only valid one.
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.mail.dispatchDue();
    expect(s.deps.mailer.sent).toHaveLength(1);
    await s.market.auth.updatePassword({ token: tokenOf(s), newPassword: "brand-new-pass" });
  });

  it("fails the mail of a user deleted before it was sent", async () => {
    const s = await withUser();
    await s.market.admin.ensureAdmin({ email: "admin@example.com", password: PASSWORD });
    const { token } = await s.market.auth.logIn({ email: "admin@example.com", password: PASSWORD });
    const admin = await s.market.auth.authenticate({ bearer: token });
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await s.market.admin.deleteUser(admin, { userId: s.user.id });
    const report = await s.market.mail.dispatchDue();
    expect(report.sent).toBe(0);
    expect(s.deps.mailer.sent).toEqual([]);
  });

  it("sends at most batchSize mails per round", async () => {
    const s = setup();
    for (let i = 0; i < 3; i++) await signUpQuietly(s, `u${i}@example.com`);
    for (let i = 0; i < 3; i++) await s.market.auth.requestPasswordReset({ email: `u${i}@example.com` });
    await expect(s.market.mail.dispatchDue({ batchSize: 2 })).resolves.toMatchObject({ sent: 2 });
    await expect(s.market.mail.dispatchDue({ batchSize: 2 })).resolves.toMatchObject({ sent: 1 });
    expect(new Set(s.deps.mailer.sent.map((m) => m.to)).size).toBe(3);
  });
});

/** The recipients of the reset mails sent so far (other kinds of mail left out). */
function resetMailsTo({ deps }: Setup): string[] {
  return deps.mailer.sent.filter((mail) => mail.kind === "password_reset").map((mail) => mail.to);
}
