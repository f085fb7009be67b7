import { describe, expect, test } from "vitest";
import { expectError, type Harness, harness } from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;

/** Signs up through the API, sends the queued mail and answers the verification link's token. */
async function signedUp(h: Harness, email = "new@example.com") {
  const session = await h.signUp(email);
  await h.marketplace.mail.dispatchDue();
  const mail = h.deps.mailer.ofKind("email_verification").at(-1);
  const url = new URL(mail?.verifyUrl ?? "");
  expect(`${url.origin}${url.pathname}`).toBe("http://localhost:3000/verify-email");
  return { session, token: url.searchParams.get("token") ?? "" };
}

async function emailVerified(h: Harness, token: string): Promise<unknown> {
  const res = await h.call("GET", "/api/auth/me", { token });
  return (await h.json<{ user: { email_verified: boolean } }>(res)).user.email_verified;
}

// The page behind the mailed link is the web surface's (adapter-web/test/verify-email.test.ts).
describe("POST /api/auth/verify-email", () => {
  test("200 {success, user} with email_verified true, once; then 400 verification_token_invalid", async () => {
    const h = harness();
    const { session, token } = await signedUp(h);
    expect(await emailVerified(h, session.token)).toBe(false);
    const res = await h.call("POST", "/api/auth/verify-email", { body: { token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      user: { id: session.id, email: "new@example.com", email_verified: true },
    });
    expect(await emailVerified(h, session.token)).toBe(true);
    const again = await h.call("POST", "/api/auth/verify-email", { body: { token } });
    await expectError(again, 400, {
      error: "Invalid, expired or already used verification link",
      code: "verification_token_invalid",
    });
  });

  test("a link older than 24 hours, a made-up token and a missing one are 400", async () => {
    const h = harness();
    const { session, token } = await signedUp(h);
    h.deps.clock.advance(DAY + 1000);
    const expired = await h.call("POST", "/api/auth/verify-email", { body: { token } });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ code: "verification_token_invalid" });
    const madeUp = await h.call("POST", "/api/auth/verify-email", { body: { token: "made-up" } });
    expect(await madeUp.json()).toMatchObject({ code: "verification_token_invalid" });
    const missing = await h.call("POST", "/api/auth/verify-email", { body: {} });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "invalid_input" });
    expect(await emailVerified(h, session.token)).toBe(false);
  });
});
