import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type Harness, harness } from "./helpers.js";

async function mailedToken(h: Harness, email: string): Promise<string> {
  await h.call("POST", "/api/auth/reset-password", { body: { email } });
  await h.marketplace.mail.dispatchDue();
  const mail = h.deps.mailer.ofKind("password_reset").at(-1);
  const url = new URL(mail?.resetUrl ?? "");
  expect(url.pathname).toBe("/reset-password");
  return url.searchParams.get("token") ?? "";
}

function submit(h: Harness, fields: Record<string, string>): Promise<Response> {
  return h.call("POST", "/reset-password", {
    raw: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

describe("GET /reset-password (what a mail scanner fetches)", () => {
  test("serves a script-free form with the token hidden, and consumes nothing", async () => {
    const h = harness();
    const s = await h.signUp();
    const token = await mailedToken(h, s.email);
    for (let i = 0; i < 3; i++) {
      const res = await h.call("GET", `/reset-password?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const html = await res.text();
      expect(html).toContain('<form method="post" action="/reset-password">');
      expect(html).toContain(`name="token" value="${token}"`);
      expect(html).toContain('name="new_password"');
      expect(html).toContain('name="confirm_password"');
      expect(html).not.toMatch(/<script|https?:\/\//i);
    }
    const res = await submit(h, { token, new_password: "after-scan", confirm_password: "after-scan" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Your password has been changed");
  });

  test("an expired, used or missing token is said up front", async () => {
    const h = harness();
    const s = await h.signUp();
    const token = await mailedToken(h, s.email);
    h.deps.clock.advance(61 * 60 * 1000);
    const expired = await h.call("GET", `/reset-password?token=${token}`);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("expired or has already been used");
    const missing = await h.call("GET", "/reset-password");
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("no reset token");
  });

  test("echoed text is escaped", async () => {
    const h = harness();
    const evil = '"><script>alert(1)</script>';
    const res = await submit(h, { token: evil, new_password: "abcdef", confirm_password: "abcdeX" });
    const html = await res.text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
  });
});

describe("POST /reset-password", () => {
  test("mismatch and too short are refused before the token is spent", async () => {
    const h = harness();
    const s = await h.signUp();
    const token = await mailedToken(h, s.email);
    const mismatch = await submit(h, { token, new_password: "abcdefg", confirm_password: "abcdefh" });
    expect(mismatch.status).toBe(400);
    const mismatchHtml = await mismatch.text();
    expect(mismatchHtml).toContain("The two passwords do not match.");
    expect(mismatchHtml).toContain(`value="${token}"`);
    const short = await submit(h, { token, new_password: "abc", confirm_password: "abc" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("too short: use at least 6 characters");
    expect(await h.marketplace.auth.checkResetToken({ token })).toBe(true);
  });

  test("success, then the new password logs in and the link is dead", async () => {
    const h = harness();
    const s = await h.signUp();
    const token = await mailedToken(h, s.email);
    const ok = await submit(h, { token, new_password: "fresh-pass", confirm_password: "fresh-pass" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/html");
    const login = await h.call("POST", "/api/auth/login", {
      body: { email: s.email, password: "fresh-pass" },
    });
    expect(login.status).toBe(200);
    const old = await h.call("POST", "/api/auth/login", {
      body: { email: s.email, password: "secret-password" },
    });
    expect(old.status).toBe(401);
    const reused = await submit(h, { token, new_password: "other-pass", confirm_password: "other-pass" });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain("expired or has already been used");
  });

  test("an expired token is stated in plain words", async () => {
    const h = harness();
    const s = await h.signUp();
    const token = await mailedToken(h, s.email);
    h.deps.clock.advance(2 * 60 * 60 * 1000);
    const res = await submit(h, { token, new_password: "fresh-pass", confirm_password: "fresh-pass" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("expired or has already been used");
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

  test("is a 400 page that says so, and the token stays unspent", async () => {
    const h = harness();
    const s = await h.signUp();
    const token = await mailedToken(h, s.email);
    for (const [type, raw] of unreadable) {
      const body = typeof raw === "string" ? raw.replace("token=t", `token=${token}`) : raw;
      const res = await h.call("POST", "/reset-password", { raw: body, headers: { "Content-Type": type } });
      expect(res.status, `${type} ${String(raw).slice(0, 30)}`).toBe(400);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("The form could not be read");
    }
    expect(await h.marketplace.auth.checkResetToken({ token })).toBe(true);
  });

  test("a well-formed multipart form is read like the urlencoded one", async () => {
    const h = harness();
    const s = await h.signUp();
    const token = await mailedToken(h, s.email);
    const form = new FormData();
    form.set("token", token);
    form.set("new_password", "multi-pass");
    form.set("confirm_password", "multi-pass");
    const res = await h.call("POST", "/reset-password", { raw: form });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Your password has been changed");
  });

  test("a body over the JSON limit is 413, read to its end first", async () => {
    const h = harness();
    const res = await h.call("POST", "/reset-password", {
      raw: `token=${"a".repeat(1024 * 1024)}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
  });

  test("no generated body, under any content type, is answered 500", async () => {
    const h = harness();
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
        const res = await h.call("POST", "/reset-password", {
          raw,
          headers: type === "" ? {} : { "Content-Type": type },
        });
        expect(res.status).toBeLessThan(500);
      }),
      { seed: 4_242, numRuns: 300 },
    );
  });
});
