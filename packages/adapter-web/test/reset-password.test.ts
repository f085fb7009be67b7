import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@psm/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { h1, type LogLine, linkFormHtml, submitLinkForm, type WebHarness, webHarness } from "./harness.js";

// The page behind the reset mail's link, as a mail scanner, a browser and a hostile client meet it.

async function mailedToken(h: WebHarness, email: string): Promise<string> {
  await h.m.auth.requestPasswordReset({ email });
  await h.m.mail.dispatchDue();
  const url = new URL(h.deps.mailer.ofKind("password_reset").at(-1)?.resetUrl ?? "");
  expect(url.pathname).toBe("/reset-password");
  return url.searchParams.get("token") ?? "";
}

async function member(h: WebHarness, email = "reset@example.com"): Promise<string> {
  await h.m.auth.signUp({ email, password: "secret-password" });
  return mailedToken(h, email);
}

const get = (h: WebHarness, path: string, headers: Record<string, string> = {}) =>
  h.app.request(path, { headers });

const submit = (h: WebHarness, fields: Record<string, string>) =>
  submitLinkForm(h, "/reset-password", fields);

/** Whether the password logs in (through core). */
const logsIn = (h: WebHarness, email: string, password: string) =>
  h.m.auth.logIn({ email, password }).then(
    () => true,
    () => false,
  );

describe("GET /reset-password (what a mail scanner fetches)", () => {
  test("serves the site's page with the token hidden and core's bounds, and consumes nothing", async () => {
    const h = webHarness();
    const token = await member(h);
    for (let i = 0; i < 3; i++) {
      const html = await linkFormHtml(await get(h, `/reset-password?token=${encodeURIComponent(token)}`));
      expect(h1(html)).toBe("Choose a new password");
      expect(html).toMatch(/<form method="post" action="\/reset-password"/);
      expect(html).toContain(`name="token" value="${token}"`);
      for (const name of ["new_password", "confirm_password"]) {
        expect(html).toMatch(new RegExp(`<label for="${name}">`));
        expect(html).toContain(`minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}"`);
      }
    }
    const res = await submit(h, { token, new_password: "after-scan", confirm_password: "after-scan" });
    expect(res.status).toBe(200);
    expect(h1(await res.text())).toBe("Password changed");
  });

  test("an expired, used or missing token is said up front", async () => {
    const h = webHarness();
    const token = await member(h);
    h.deps.clock.advance(61 * 60 * 1000);
    const expired = await get(h, `/reset-password?token=${token}`);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("expired or has already been used");
    const missing = await get(h, "/reset-password");
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("no reset token");
  });

  test("echoed text is escaped", async () => {
    const h = webHarness();
    const evil = '"><script>alert(1)</script>';
    const res = await submit(h, { token: evil, new_password: "abcdef", confirm_password: "abcdeX" });
    const html = await res.text();
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
  });

  test("the token never reaches a log line", async () => {
    const logs: LogLine[] = [];
    const h = webHarness({ logs });
    const token = await member(h);
    await get(h, `/reset-password?token=${token}`);
    await submit(h, { token, new_password: "fresh-pass", confirm_password: "fresh-pass" });
    expect(logs.map((line) => line.obj)).toContainEqual(
      expect.objectContaining({ method: "GET", path: "/reset-password", status: 200 }),
    );
    expect(JSON.stringify(logs)).not.toContain(token);
  });
});

describe("POST /reset-password", () => {
  test("a mismatch is refused before the token is spent; the typed token stays in the form", async () => {
    const h = webHarness();
    const token = await member(h);
    const mismatch = await submit(h, { token, new_password: "abcdefg", confirm_password: "abcdefh" });
    expect(mismatch.status).toBe(400);
    const html = await mismatch.text();
    expect(html).toContain("The two passwords do not match.");
    expect(html).toContain(`value="${token}"`);
    expect(html).toContain('aria-invalid="true"');
    expect(await h.m.auth.checkResetToken({ token })).toBe(true);
  });

  test("core's bounds are enforced, in the page's words, and spend nothing", async () => {
    const h = webHarness();
    const token = await member(h);
    const short = "a".repeat(PASSWORD_MIN_LENGTH - 1);
    const tooShort = await submit(h, { token, new_password: short, confirm_password: short });
    expect(tooShort.status).toBe(400);
    expect(await tooShort.text()).toContain(
      `New password is too short: use at least ${PASSWORD_MIN_LENGTH} characters.`,
    );
    const long = "a".repeat(PASSWORD_MAX_LENGTH + 1);
    const tooLong = await submit(h, { token, new_password: long, confirm_password: long });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain(`New password must be at most ${PASSWORD_MAX_LENGTH} characters`);
    // A short one typed differently twice: what is wrong with it comes first.
    const both = await submit(h, { token, new_password: short, confirm_password: `${short}x` });
    const bothHtml = await both.text();
    expect(bothHtml).toContain(`at least ${PASSWORD_MIN_LENGTH} characters`);
    expect(bothHtml).not.toContain("do not match");
    expect(await h.m.auth.checkResetToken({ token })).toBe(true);
    const exact = "b".repeat(PASSWORD_MIN_LENGTH);
    expect((await submit(h, { token, new_password: exact, confirm_password: exact })).status).toBe(200);
    expect(await logsIn(h, "reset@example.com", exact)).toBe(true);
  });

  test("success, then the new password logs in and the link is dead", async () => {
    const h = webHarness();
    const token = await member(h);
    const ok = await submit(h, { token, new_password: "fresh-pass", confirm_password: "fresh-pass" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/html");
    expect(await ok.text()).toContain("Your password has been changed");
    expect(await logsIn(h, "reset@example.com", "fresh-pass")).toBe(true);
    expect(await logsIn(h, "reset@example.com", "secret-password")).toBe(false);
    const reused = await submit(h, { token, new_password: "other-pass", confirm_password: "other-pass" });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain("expired or has already been used");
  });

  test("an expired or malformed token is stated in plain words", async () => {
    const h = webHarness();
    const token = await member(h);
    h.deps.clock.advance(2 * 60 * 60 * 1000);
    const res = await submit(h, { token, new_password: "fresh-pass", confirm_password: "fresh-pass" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("expired or has already been used");
    const long = await submit(h, { token: "x".repeat(600), new_password: "abc", confirm_password: "abc" });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("expired or has already been used");
  });

  test("GET counts as a read, POST as a write, and a bad credential is 401", async () => {
    const seen: string[] = [];
    const count = (name: string) => async (_: unknown, next: () => Promise<void>) => {
      seen.push(name);
      await next();
    };
    const h = webHarness({ rateLimit: { read: count("read"), write: count("write") } });
    await get(h, "/reset-password?token=x");
    await submit(h, { token: "x", new_password: "abcdef", confirm_password: "abcdef" });
    expect(seen).toEqual(["read", "write"]);
    const bad = await get(h, "/reset-password?token=x", { Authorization: "Bearer not-a-token" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ code: "unauthenticated" });
  });
});

describe("POST /reset-password: a body that is not a readable form", () => {
  const unreadable: [string, string | Uint8Array<ArrayBuffer>][] = [
    ["multipart/form-data", "token=a&new_password=abcdef"],
    ["multipart/form-data; boundary=zzz", "token=a&new_password=abcdef"],
    ["multipart/form-data; boundary=zzz", '--zzz\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc'],
    ["multipart/form-data; boundary=zzz", "--zzz\r\nno headers end"],
    ["multipart/form-data; boundary=zzz", new Uint8Array([0x2d, 0x2d, 0x7a, 0x7a, 0x7a, 0xff, 0x00, 0x0d])],
    ["application/x-www-form-urlencoded", "token=%FF&new_password=abcdef&confirm_password=abcdef"],
    ["application/x-www-form-urlencoded", "token=%&new_password=abcdef&confirm_password=abcdef"],
    ["application/x-www-form-urlencoded", "token=t&new_password=abc%00def&confirm_password=abc%00def"],
    ["application/x-www-form-urlencoded", new Uint8Array([0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x3d, 0xc3, 0x28])],
    ["application/json", '{"token":"t","new_password":"abcdef","confirm_password":"abcdef"}'],
    ["text/plain", "token=t"],
  ];

  const post = (h: WebHarness, body: BodyInit, headers: Record<string, string> = {}) =>
    Promise.resolve(h.app.request("/reset-password", { method: "POST", body, headers }));

  test("is a 400 page that says so, and the token stays unspent", async () => {
    const h = webHarness();
    const token = await member(h);
    for (const [type, raw] of unreadable) {
      const body = typeof raw === "string" ? raw.replace("token=t", `token=${token}`) : raw;
      const res = await post(h, body, { "Content-Type": type });
      expect(res.status, `${type} ${String(raw).slice(0, 30)}`).toBe(400);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("The form could not be read");
    }
    expect(await h.m.auth.checkResetToken({ token })).toBe(true);
  });

  test("a well-formed multipart form is read like the urlencoded one", async () => {
    const h = webHarness();
    const token = await member(h);
    const form = new FormData();
    form.set("token", token);
    form.set("new_password", "multi-pass");
    form.set("confirm_password", "multi-pass");
    const res = await post(h, form);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Your password has been changed");
  });

  test("a body over the form limit is 413 {error, code}, read to its end first", async () => {
    const h = webHarness();
    const res = await post(h, `token=${"a".repeat(1024 * 1024)}`, {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
  });

  test("no generated body, under any content type, is answered 500", async () => {
    const h = webHarness();
    const types = fc.constantFrom(
      "multipart/form-data",
      "multipart/form-data; boundary=b",
      'multipart/form-data; boundary="b"',
      "application/x-www-form-urlencoded",
      "application/x-www-form-urlencoded; charset=latin1",
      "application/json",
      "",
    );
    const multipart = fc
      .array(fc.oneof(fc.constant("--b\r\n"), fc.constant("--b--"), fc.constant("\r\n\r\n"), fc.string()), {
        maxLength: 8,
      })
      .map((parts) => parts.join(""));
    const bodies = fc.oneof(
      multipart,
      fc.string({ unit: "binary", maxLength: 80 }),
      fc.uint8Array({ maxLength: 120 }).map((bytes) => new Uint8Array(bytes)),
    );
    await fc.assert(
      fc.asyncProperty(types, bodies, async (type, raw) => {
        const res = await post(h, raw, type === "" ? {} : { "Content-Type": type });
        expect(res.status).toBeLessThan(500);
      }),
      { seed: 4_242, numRuns: 300 },
    );
  });
});
