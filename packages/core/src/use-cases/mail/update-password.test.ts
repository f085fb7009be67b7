import { describe, expect, it } from "vitest";
import { expectCode, KIT_PASSWORD as PASSWORD, untyped } from "../../testing/use-case-kit.js";
import { MINUTE, setup, signUpQuietly, tokenOf, withUser } from "./reset-mail-test-support.js";

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
