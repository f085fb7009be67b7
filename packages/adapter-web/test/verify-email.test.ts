import { describe, expect, test } from "vitest";
import { h1, linkFormHtml, ORIGIN, submitLinkForm, type WebHarness, webHarness } from "./harness.js";

// The page behind the sign-up mail's link: a mail scanner's GET changes nothing, the button confirms.

const DAY = 24 * 60 * 60 * 1000;

/** Signs up through core, sends the queued mail and answers the verification link's token. */
async function signedUp(h: WebHarness, email = "new@example.com") {
  const user = await h.m.auth.signUp({ email, password: "secret-password" });
  await h.m.mail.dispatchDue();
  const url = new URL(h.deps.mailer.ofKind("email_verification").at(-1)?.verifyUrl ?? "");
  expect(`${url.origin}${url.pathname}`).toBe(`${ORIGIN}/verify-email`);
  return { id: user.id, token: url.searchParams.get("token") ?? "" };
}

async function verified(h: WebHarness, id: string): Promise<boolean> {
  return (await h.deps.repos.users.findById(id))?.emailVerifiedAt != null;
}

const get = (h: WebHarness, path: string) => Promise.resolve(h.app.request(path));

const submit = (h: WebHarness, fields: Record<string, string>) => submitLinkForm(h, "/verify-email", fields);

describe("GET /verify-email (what a mail scanner fetches)", () => {
  test("asks with the site's page, consumes nothing; the form's POST confirms", async () => {
    const h = webHarness();
    const { id, token } = await signedUp(h);
    for (let i = 0; i < 3; i++) {
      const html = await linkFormHtml(await get(h, `/verify-email?token=${encodeURIComponent(token)}`));
      expect(h1(html)).toBe("Confirm your email address");
      expect(html).toMatch(/<form method="post" action="\/verify-email"/);
      expect(html).toContain(`name="token" value="${token}"`);
      expect(html).toContain("only if you created it yourself");
    }
    expect(await verified(h, id)).toBe(false);
    expect(await h.m.auth.checkVerificationToken({ token })).toBe(true);

    const confirmed = await submit(h, { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("cache-control")).toBe("no-store");
    const html = await confirmed.text();
    expect(h1(html)).toBe("Address confirmed");
    expect(html).toContain("Your email address is confirmed");
    expect(await verified(h, id)).toBe(true);

    const used = await get(h, `/verify-email?token=${encodeURIComponent(token)}`);
    expect(used.status).toBe(400);
    expect(await used.text()).toContain("expired or has already been used");
    const resubmitted = await submit(h, { token });
    expect(resubmitted.status).toBe(400);
  });

  test("a missing, expired or malformed token is said up front", async () => {
    const h = webHarness();
    const { token } = await signedUp(h);
    const missing = await get(h, "/verify-email");
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("no verification token");
    expect((await submit(h, {})).status).toBe(400);
    expect((await submit(h, { token: "x".repeat(600) })).status).toBe(400);
    h.deps.clock.advance(DAY + 1000);
    const expired = await get(h, `/verify-email?token=${token}`);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("expired or has already been used");
  });

  test("a refused token is not echoed back", async () => {
    const h = webHarness();
    for (const res of [
      await submit(h, { token: '"><script>alert(1)</script>' }),
      await get(h, `/verify-email?token=${encodeURIComponent('"><script>alert(1)</script>')}`),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.text()).not.toMatch(/alert\(1\)/);
    }
  });

  test("a query that is not UTF-8 is 400 naming it; another method is 405", async () => {
    const h = webHarness();
    const broken = await get(h, "/verify-email?token=%FF");
    expect(broken.status).toBe(400);
    // Refused by the pages' strict URL rule, as a page that names the parameter.
    expect(await broken.text()).toContain("token: is not valid UTF-8");
    const other = await Promise.resolve(h.app.request("/verify-email", { method: "DELETE" }));
    expect(other.status).toBe(405);
    expect(other.headers.get("allow")).toContain("POST");
  });
});
