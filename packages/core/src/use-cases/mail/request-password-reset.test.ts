import { sha256Hex } from "@psm/core";
import { describe, expect, it } from "vitest";
import { expectCode, type UseCaseKit, untyped } from "../../testing/use-case-kit.js";
import { HOUR, MINUTE, setup, tokenOf, withUser } from "./reset-mail-test-support.js";

describe("auth.requestPasswordReset", () => {
  it("queues nothing for an unknown address and returns normally", async () => {
    const { deps, market } = setup();
    await expect(market.auth.requestPasswordReset({ email: "nobody@example.com" })).resolves.toBeUndefined();
    await expect(market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(deps.mailer.sent).toEqual([]);
  });

  it("stores the request before answering; a round that fails puts it back for the next", async () => {
    const s = await withUser();
    const { unitOfWork } = s.deps.repos;
    let down = false;
    // Storage that fails on every user lookup of a round while `down`.
    s.deps.repos.unitOfWork = {
      run: (work) =>
        unitOfWork.run((repos) =>
          work({
            ...repos,
            users: {
              ...repos.users,
              findByEmail: (email) =>
                down ? Promise.reject(new Error("database is down")) : repos.users.findByEmail(email),
            },
          }),
        ),
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

  it("refuses the request, rather than acknowledge it, when it cannot be stored", async () => {
    const s = setup();
    s.deps.repos.mailQueue = {
      ...s.deps.repos.mailQueue,
      noteResetRequest: () => Promise.reject(new Error("database is down")),
    };
    await expect(s.market.auth.requestPasswordReset({ email: "reset@example.com" })).rejects.toThrow(
      "database is down",
    );
  });

  it("looks nothing up while answering: known and unknown addresses cost one insert alike", async () => {
    const s = await withUser();
    const { users, mailQueue } = s.deps.repos;
    const calls: string[] = [];
    const record =
      <A extends unknown[], R>(name: string, f: (...args: A) => R) =>
      (...args: A) => {
        calls.push(name);
        return f(...args);
      };
    s.deps.repos.users = { ...users, findByEmail: record("users.findByEmail", users.findByEmail) };
    s.deps.repos.mailQueue = {
      ...mailQueue,
      noteResetRequest: record("mailQueue.noteResetRequest", mailQueue.noteResetRequest),
      enqueue: record("mailQueue.enqueue", mailQueue.enqueue),
    };
    for (const email of ["reset@example.com", "nobody@example.com"]) {
      calls.length = 0;
      await s.market.auth.requestPasswordReset({ email });
      expect(calls).toEqual(["mailQueue.noteResetRequest"]);
    }
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

/** The recipients of the reset mails sent so far (other kinds of mail left out). */
function resetMailsTo({ deps }: UseCaseKit): string[] {
  return deps.mailer.sent.filter((mail) => mail.kind === "password_reset").map((mail) => mail.to);
}
