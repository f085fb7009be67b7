import { createRateLimitHooks } from "@psm/adapter-http";
import { describe, expect, it } from "vitest";
import { h1, webHarness } from "./harness.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("rate limits: the API's hooks count the web forms too", () => {
  it("login: failures for one address are limited (the 401 page counts), then 429 with Retry-After", async () => {
    const rateLimit = createRateLimitHooks({
      policies: { loginFailures: { name: "login-failures", limit: 2, windowMs: 15 * MINUTE } },
    });
    const h = webHarness({ rateLimit });
    await h.m.auth.signUp({ email: "target@example.com", password: "secret-password" });
    const b = h.browser();
    const login = await b.get("/login");
    const attempt = (password: string) =>
      b.submit(login, "/login", { email: "target@example.com", password });
    expect((await attempt("wrong-1")).status).toBe(401);
    const second = await attempt("wrong-2");
    expect(second.status).toBe(401);
    expect(second.html).toContain("The email or the password is wrong");
    const third = await attempt("secret-password");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(h1(third.html)).toBe("Too many attempts");
    expect(b.cookies.has("psm_session")).toBe(false);
    // Another address from the same client is not locked out by them.
    await h.m.auth.signUp({ email: "other@example.com", password: "secret-password" });
    expect(
      (await b.submit(login, "/login", { email: "other@example.com", password: "secret-password" })).status,
    ).toBe(303);
  });

  it("a wrong current password on the password form is a failed login of that account", async () => {
    const rateLimit = createRateLimitHooks({
      policies: { loginFailures: { name: "login-failures", limit: 3, windowMs: 15 * MINUTE } },
    });
    const h = webHarness({ rateLimit });
    const { browser, email } = await h.signedIn("owner@example.com", "secret-password");
    const account = await browser.get("/account");
    const change = (current: string) =>
      browser.submit(account, "/account/password", {
        current_password: current,
        new_password: "a new long passphrase",
        confirm_password: "a new long passphrase",
      });
    for (const guess of ["guess-1", "guess-2", "guess-3"]) {
      const page = await change(guess);
      expect(page.status).toBe(401);
      expect(page.html).toContain("Current password is wrong");
    }
    // Three guesses spent this client's tries at the account: the form, then the log-in, refuse.
    expect((await change("secret-password")).status).toBe(429);
    const login = await h.app.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "secret-password" }),
    });
    expect(login.status).toBe(429);
    expect(await login.json()).toMatchObject({ code: "rate_limited" });
  });

  it("sign-up counts accounts created, not refused forms; the refusal says when to try again", async () => {
    const rateLimit = createRateLimitHooks({
      policies: { signup: { name: "signup", limit: 2, windowMs: HOUR } },
    });
    const h = webHarness({ rateLimit });
    await h.m.auth.signUp({ email: "taken@example.com", password: "secret-password" });
    const office = h.browser();
    const form = await office.get("/signup");
    const submit = (email: string, password = "secret-password") =>
      office.submit(form, "/signup", { email, password });
    // Five mistakes from one office: each refused on the form, none counted.
    for (const [email, password] of [
      ["taken@example.com", "secret-password"],
      ["new@example.com", "short"],
      ["not-an-address", "secret-password"],
      ["taken@example.com", "another-password"],
      ["new@example.com", "x"],
    ] as const) {
      expect((await submit(email, password)).status).toBe(400);
    }
    expect((await submit("first@example.com")).status).toBe(303);
    // The API and the pages share the quota: the second account is created over the API.
    const api = await h.app.request("/api/auth/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "second@example.com", password: "secret-password" }),
    });
    expect(api.status).toBe(201);
    const colleague = h.browser();
    const refused = await colleague.submit(await colleague.get("/signup"), "/signup", {
      email: "third@example.com",
      password: "secret-password",
    });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(60);
    expect(h1(refused.html)).toBe("Not just now");
    expect(refused.html).toContain(
      `Too many accounts created from this network: try again in ${Math.ceil(retryAfter / 60)} minutes.`,
    );
  });

  it("sign-up, forgot-password and writes use their classes' quotas", async () => {
    const rateLimit = createRateLimitHooks({
      policies: {
        signup: { name: "signup", limit: 1, windowMs: MINUTE },
        reset: { name: "reset", limit: 1, windowMs: MINUTE },
        write: { name: "write", limit: 2, windowMs: MINUTE },
      },
    });
    const h = webHarness({ rateLimit });
    const b = h.browser();
    const signup = await b.get("/signup");
    expect(
      (await b.submit(signup, "/signup", { email: "one@example.com", password: "secret-password" })).status,
    ).toBe(303);
    const fresh = h.browser();
    const again = await fresh.get("/signup");
    expect(
      (await fresh.submit(again, "/signup", { email: "two@example.com", password: "secret-password" }))
        .status,
    ).toBe(429);

    const forgot = await fresh.get("/forgot-password");
    expect((await fresh.submit(forgot, "/forgot-password", { email: "one@example.com" })).status).toBe(303);
    expect((await fresh.submit(forgot, "/forgot-password", { email: "one@example.com" })).status).toBe(429);

    const account = await b.get("/account");
    expect((await b.submit(account, "/account/profile", { display_name: "A" })).status).toBe(303);
    expect((await b.submit(account, "/account/profile", { display_name: "B" })).status).toBe(303);
    const limited = await b.submit(account, "/account/profile", { display_name: "C" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("ratelimit-policy") ?? limited.headers.get("ratelimit")).toBeTruthy();
  });
});
