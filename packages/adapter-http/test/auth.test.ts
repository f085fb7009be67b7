import { describe, expect, test } from "vitest";
import { expectError, harness } from "./helpers.js";

const USER_KEYS = [
  "account_type",
  "active_listings_count",
  "created_at",
  "display_name",
  "email",
  "email_verified",
  "id",
  "is_admin",
];

describe("signup and login", () => {
  test("signup 201 {success, user}; the email is normalised; a taken email is 400", async () => {
    const h = harness();
    const res = await h.call("POST", "/api/auth/signup", {
      body: { email: "  Ada@Example.COM ", password: "secret1", display_name: "Ada" },
    });
    expect(res.status).toBe(201);
    const body = await h.json<{ success: boolean; user: Record<string, unknown> }>(res);
    expect(body.success).toBe(true);
    expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
    expect(body.user).toMatchObject({
      email: "ada@example.com",
      display_name: "Ada",
      is_admin: false,
      email_verified: false,
    });
    const again = await h.call("POST", "/api/auth/signup", {
      body: { email: "ada@example.com", password: "secret1" },
    });
    await expectError(again, 400, { error: "Email already registered", code: "email_taken" });
    const short = await h.call("POST", "/api/auth/signup", {
      body: { email: "b@example.com", password: "12345" },
    });
    expect(await short.json()).toEqual({
      error: "password: must be at least 6 characters",
      code: "invalid_input",
    });
  });

  test("display_name at signup is optional and validated as PUT /api/users/update validates it", async () => {
    const h = harness();
    const named = await h.call("POST", "/api/auth/signup", {
      body: { email: "named@example.com", password: "secret1", display_name: "  Ada Consulting " },
    });
    expect(named.status).toBe(201);
    expect((await h.json<{ user: { display_name: string } }>(named)).user.display_name).toBe(
      "Ada Consulting",
    );
    const s = await h.signUp();
    let n = 0;
    for (const bad of ["", "   ", "x".repeat(101), 42, "nul\u0000"]) {
      const signup = await h.call("POST", "/api/auth/signup", {
        body: { email: `bad${++n}@example.com`, password: "secret1", display_name: bad },
      });
      const update = await h.call("PUT", "/api/users/update", {
        token: s.token,
        body: { display_name: bad },
      });
      expect([signup.status, update.status], JSON.stringify(bad)).toEqual([400, 400]);
      const refusal = await signup.json();
      expect(refusal, JSON.stringify(bad)).toEqual(await update.json());
      expect(refusal).toMatchObject({ code: "invalid_input" });
    }
    // None of the refused sign-ups made an account.
    const taken = await h.call("POST", "/api/auth/signup", {
      body: { email: "bad1@example.com", password: "secret1" },
    });
    expect(taken.status).toBe(201);
  });

  test("the default display_name shows nothing of the email", async () => {
    const h = harness();
    const res = await h.call("POST", "/api/auth/signup", {
      body: { email: "jane.doe@example.com", password: "secret1" },
    });
    const { user } = await h.json<{ user: { display_name: string } }>(res);
    expect(user.display_name).toMatch(/^Member [0-9a-f]{6}$/);
    expect(user.display_name).not.toContain("jane");
  });

  test("login {success, user, token}; bad credentials 401", async () => {
    const h = harness();
    await h.call("POST", "/api/auth/signup", { body: { email: "c@example.com", password: "secret1" } });
    const res = await h.call("POST", "/api/auth/login", {
      body: { email: "C@example.com", password: "secret1" },
    });
    expect(res.status).toBe(200);
    const body = await h.json<{ success: boolean; user: Record<string, unknown>; token: string }>(res);
    expect(body.success).toBe(true);
    expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
    expect(body.token.split(".")).toHaveLength(3);
    for (const creds of [
      { email: "c@example.com", password: "wrong-password" },
      { email: "nobody@example.com", password: "secret1" },
    ]) {
      const bad = await h.call("POST", "/api/auth/login", { body: creds });
      await expectError(bad, 401, { error: "Invalid email or password", code: "invalid_credentials" });
    }
    expect((await h.call("POST", "/api/auth/login", { body: { email: "c@example.com" } })).status).toBe(400);
  });
});

describe("me and logout", () => {
  test("me: {user: null} without credentials, the user with a JWT or (strict) an API key", async () => {
    const h = harness();
    expect(await (await h.call("GET", "/api/auth/me")).json()).toEqual({ user: null });
    const s = await h.signUp();
    const withJwt = await h.json<{ user: { id: string } }>(
      await h.call("GET", "/api/auth/me", { token: s.token }),
    );
    expect(withJwt.user.id).toBe(s.id);
    const key = await h.apiKey(s);
    const withKey = await h.json<{ user: { id: string } }>(await h.call("GET", "/api/auth/me", { key }));
    expect(withKey.user.id).toBe(s.id);
  });

  test("logout {success: true}", async () => {
    const h = harness();
    expect(await (await h.call("POST", "/api/auth/logout")).json()).toEqual({ success: true });
  });
});

describe("credentials", () => {
  test("a presented but invalid credential is 401 on every route, public ones included", async () => {
    const h = harness();
    const bad = [
      { key: "psm_0000" },
      { key: `psm_${"a".repeat(64)}` },
      { token: "not.a.jwt" },
      { headers: { Authorization: "Basic dXNlcjpwYXNz" } },
    ];
    for (const creds of bad) {
      for (const [method, path] of [
        ["GET", "/api/listings"],
        ["GET", "/api/capabilities"],
        ["GET", "/api/auth/me"],
        ["POST", "/api/auth/logout"],
      ] as const) {
        const res = await h.call(method, path, creds);
        expect(res.status, `${method} ${path} ${JSON.stringify(creds)}`).toBe(401);
        expect(await res.json()).toMatchObject({ code: "unauthenticated" });
      }
    }
  });

  test("an API key on a JWT-only route is 401; a user JWT on admin is 403", async () => {
    const h = harness();
    const s = await h.signUp();
    const key = await h.apiKey(s);
    const update = await h.call("PUT", "/api/users/update", { key, body: { display_name: "X" } });
    expect(update.status).toBe(401);
    expect(await update.json()).toMatchObject({ code: "unauthenticated" });
    const admin = await h.admin();
    const adminKey = await h.apiKey(admin);
    expect((await h.call("GET", "/api/admin/users", { key: adminKey })).status).toBe(401);
    const asUser = await h.call("GET", "/api/admin/users", { token: s.token });
    await expectError(asUser, 403, { error: "Admin access required", code: "admin_required" });
  });

  test("a deactivated key stops working", async () => {
    const h = harness();
    const s = await h.signUp();
    const key = await h.apiKey(s);
    const list = await h.json<{ keys: { id: string }[] }>(await h.call("GET", "/api/keys", { key }));
    await h.call("DELETE", `/api/keys/${list.keys[0]?.id}`, { token: s.token });
    expect((await h.call("GET", "/api/keys", { key })).status).toBe(401);
  });
});

describe("password reset (JSON API)", () => {
  test("reset-password answers {success: true} for known and unknown addresses; 400 malformed", async () => {
    const h = harness();
    const s = await h.signUp();
    for (const email of [s.email, "nobody@example.com"]) {
      const res = await h.call("POST", "/api/auth/reset-password", { body: { email } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
    }
    expect((await h.call("POST", "/api/auth/reset-password", { body: { email: "nope" } })).status).toBe(400);
    expect((await h.call("POST", "/api/auth/reset-password", { body: {} })).status).toBe(400);
  });

  test("onPasswordResetRequested is poked after each accepted request; a throwing hook changes nothing", async () => {
    let pokes = 0;
    const h = harness("strict", { onPasswordResetRequested: () => void pokes++ });
    await h.call("POST", "/api/auth/reset-password", { body: { email: "nobody@example.com" } });
    await h.call("POST", "/api/auth/reset-password", { body: { email: "bad" } });
    expect(pokes).toBe(1);
    const failing = harness("strict", {
      onPasswordResetRequested: () => {
        throw new Error("dispatcher gone");
      },
    });
    const res = await failing.call("POST", "/api/auth/reset-password", { body: { email: "a@example.com" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
  });

  test("update-password with the mailed token; reused or bad token 400; old JWT ends", async () => {
    const h = harness();
    const s = await h.signUp();
    await h.call("POST", "/api/auth/reset-password", { body: { email: s.email } });
    await h.marketplace.mail.dispatchDue();
    const url = new URL(h.deps.mailer.ofKind("password_reset")[0]?.resetUrl ?? "");
    const token = url.searchParams.get("token") ?? "";
    const res = await h.call("POST", "/api/auth/update-password", {
      body: { token, new_password: "brand-new" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const again = await h.call("POST", "/api/auth/update-password", {
      body: { token, new_password: "brand-new" },
    });
    await expectError(again, 400, { error: "Invalid or expired token", code: "reset_token_invalid" });
    const short = await h.call("POST", "/api/auth/update-password", {
      body: { token, new_password: "12345" },
    });
    expect(await short.json()).toMatchObject({ error: "new_password: must be at least 6 characters" });
    expect((await h.call("GET", "/api/auth/me", { token: s.token })).status).toBe(401);
    const login = await h.call("POST", "/api/auth/login", {
      body: { email: s.email, password: "brand-new" },
    });
    expect(login.status).toBe(200);
  });
});
