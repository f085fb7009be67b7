import { describe, expect, test } from "vitest";
import { logInStatus, signUp, updatePassword } from "../support/accounts.js";
import { useShared } from "../support/harness.js";
import { startMailServer } from "../support/mail-server.js";
import { expectResetMail, readResetForm, requestReset, waitForMails } from "../support/reset-flow.js";

// Characters that must be percent-encoded in the URL and decoded by the server.
const AUTH = { user: "mailer@example.com", pass: "p@ss w:rd/%" };

// The reset flow against the real server process and a real SMTP server on
// loopback that requires AUTH (the retry tests cover a server without it).
describe("password reset over SMTP", () => {
  // These tests use addresses of their own, so they share one server.
  const mailing = useShared((h) => startMailServer(h, { smtp: { auth: AUTH }, selfLinked: true }));

  test("the mailed token resets the password once, and a scanner's GET does not spend it", async () => {
    const { server, smtp, context } = mailing();
    const publicUrl = server.url;
    const email = "ada@example.com";
    await signUp(server.url, email, "old-password");

    await requestReset(server.url, email);
    const [mail] = await waitForMails(smtp, email, 1, context);
    const { link, token } = expectResetMail(mail!, email, publicUrl);
    expect(smtp.received.find((m) => m.parsed === mail)?.envelopeTo).toEqual([email]);

    // A mail scanner fetches the link before the person clicks.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    // The page holds a live token: no cache keeps it, and it loads nothing from elsewhere.
    expect(page.headers.get("cache-control")).toContain("no-store");
    const html = await page.text();
    expect(html).not.toMatch(/<script|https?:\/\//i);
    const form = readResetForm(html);
    expect(form.method.toLowerCase()).toBe("post");
    expect(form.fields.get("token")).toEqual({ type: "hidden", value: token });
    // Fetching twice still finds the token alive.
    expect((await fetch(link)).status).toBe(200);

    const changed = await updatePassword(server.url, token, "new-password");
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ success: true });
    expect(await logInStatus(server.url, email, "old-password")).toBe(401);
    expect(await logInStatus(server.url, email, "new-password")).toBe(200);

    const again = await updatePassword(server.url, token, "third-password");
    expect(again.status).toBe(400);
    expect(await logInStatus(server.url, email, "new-password")).toBe(200);
    // The dead link now says so instead of showing the form.
    expect((await fetch(link)).status).toBe(400);
    // The link travelled through the access log twice; the token must not be in it.
    expect(server.output()).not.toContain(token);
  });

  test("the HTML form on the link sets the new password", async () => {
    const { server, smtp, context } = mailing();
    const email = "grace@example.com";
    await signUp(server.url, email, "old-password");
    await requestReset(server.url, email);
    const [mail] = await waitForMails(smtp, email, 1, context);
    const { link } = expectResetMail(mail!, email, server.url);

    // Fill in the form as a browser would: every field the page names, posted form-encoded.
    const form = readResetForm(await (await fetch(link)).text());
    const body = new URLSearchParams();
    for (const [name, field] of form.fields) {
      body.set(name, field.type === "password" ? "form-password" : field.value);
    }
    expect([...body.keys()].sort()).toEqual(["confirm_password", "new_password", "token"]);
    const submit = (fields: URLSearchParams) =>
      fetch(new URL(form.action, link), { method: "POST", body: fields, redirect: "manual" });

    // Typos are told in plain words and do not spend the single-use token.
    const mismatch = new URLSearchParams(body);
    mismatch.set("confirm_password", "something-else");
    const refused = await submit(mismatch);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/do not match/i);
    const short = new URLSearchParams(body);
    short.set("new_password", "abc");
    short.set("confirm_password", "abc");
    const tooShort = await submit(short);
    expect(tooShort.status).toBe(400);
    expect(await tooShort.text()).toMatch(/too short/i);

    const done = await submit(body);
    expect(done.status).toBe(200);
    expect(done.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await done.text()).toMatch(/password has been changed/i);

    expect(await logInStatus(server.url, email, "old-password")).toBe(401);
    expect(await logInStatus(server.url, email, "form-password")).toBe(200);
    // Posting the same form again finds the link spent.
    const replay = await submit(body);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/expired/i);
  });

  test("SMTP_URL credentials are used for AUTH, percent-decoded, and never logged", async () => {
    const { server, smtp, context } = mailing();
    const email = "linus@example.com";
    await signUp(server.url, email, "old-password");
    await requestReset(server.url, email);
    await waitForMails(smtp, email, 1, context);
    // The receiver accepts nothing without AUTH, so every mail proves the login worked.
    expect(smtp.received.length).toBeGreaterThan(0);
    expect(smtp.received.every((m) => m.authUser === AUTH.user)).toBe(true);
    expect(server.output()).not.toContain(AUTH.pass);
    expect(server.output()).not.toContain(encodeURIComponent(AUTH.pass));
  });
});
