import { MAIL_RETRY } from "@psm/core";
import { describe, expect, it } from "vitest";
import { KIT_PASSWORD as PASSWORD } from "../../testing/use-case-kit.js";
import { HOUR, setup, signUpQuietly, tokenOf, withUser } from "./reset-mail-test-support.js";

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
