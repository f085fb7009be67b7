import { describe, expect, test } from "vitest";
import { type Harness, harness } from "./helpers.js";

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

function submit(h: Harness, fields: Record<string, string>): Promise<Response> {
  return h.call("POST", "/verify-email", {
    raw: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

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
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
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

describe("GET /verify-email (what a mail scanner fetches)", () => {
  test("asks with a script-free form, consumes nothing; the form's POST confirms", async () => {
    const h = harness();
    const { session, token } = await signedUp(h);
    for (let i = 0; i < 3; i++) {
      const res = await h.call("GET", `/verify-email?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const html = await res.text();
      expect(html).toContain('<form method="post" action="/verify-email">');
      expect(html).toContain(`name="token" value="${token}"`);
      expect(html).toContain("only if you created it yourself");
      expect(html).not.toMatch(/<script|https?:\/\//i);
    }
    expect(await emailVerified(h, session.token)).toBe(false);
    expect(await h.marketplace.auth.checkVerificationToken({ token })).toBe(true);

    const confirmed = await submit(h, { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("cache-control")).toBe("no-store");
    expect(await confirmed.text()).toContain("Your email address is confirmed");
    expect(await emailVerified(h, session.token)).toBe(true);

    const used = await h.call("GET", `/verify-email?token=${encodeURIComponent(token)}`);
    expect(used.status).toBe(400);
    expect(await used.text()).toContain("expired or has already been used");
    const resubmitted = await submit(h, { token });
    expect(resubmitted.status).toBe(400);
  });

  test("a missing, expired or malformed token is said up front", async () => {
    const h = harness();
    const { token } = await signedUp(h);
    const missing = await h.call("GET", "/verify-email");
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("no verification token");
    expect((await submit(h, {})).status).toBe(400);
    expect((await submit(h, { token: "x".repeat(600) })).status).toBe(400);
    h.deps.clock.advance(DAY + 1000);
    const expired = await h.call("GET", `/verify-email?token=${token}`);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("expired or has already been used");
  });

  test("a refused token is not echoed back", async () => {
    const h = harness();
    for (const res of [
      await submit(h, { token: '"><script>alert(1)</script>' }),
      await h.call("GET", `/verify-email?token=${encodeURIComponent('"><script>alert(1)</script>')}`),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.text()).not.toMatch(/script|alert/);
    }
  });
});
