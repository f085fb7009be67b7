import { describe, expect, it } from "vitest";
import { expectError, expectStatus, str } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import { PASSWORD, type World } from "../../support/world.js";

/** Sign-up and log-in errors, me, logout, password reset, and the JWT-only users/update. */
export function authScenario(world: () => World): void {
  describe("auth and users", () => {
    const [user] = accountsBeforeAll(world, "auth-user");

    it("refuses a sign-up without email or password, or with a taken (case-variant) email", async () => {
      const { api } = world();
      expectError(await api.post("/api/auth/signup", { body: { password: PASSWORD } }), 400, "invalid_input");
      expectError(await api.post("/api/auth/signup", { body: { email: "nopass@example.com" } }), 400);
      expectError(
        await api.post("/api/auth/signup", { body: { email: "short@example.com", password: "12345" } }),
        400,
      );
      const taken = await api.post("/api/auth/signup", {
        body: { email: user.email.toUpperCase(), password: PASSWORD },
      });
      expectError(taken, 400, "email_taken");
    });

    it("signs up with the email trimmed and lower-cased, and issues a 7-day JWT with sub and id", async () => {
      const { api } = world();
      const signup = await api.post("/api/auth/signup", {
        body: { email: "  New.Person@Example.COM ", password: PASSWORD, display_name: "New Person" },
      });
      expectStatus(signup, 201);
      expect(signup.body).toMatchObject({
        success: true,
        user: { email: "new.person@example.com", display_name: "New Person", is_admin: false },
      });
      const login = await api.post("/api/auth/login", {
        body: { email: "NEW.PERSON@example.com", password: PASSWORD },
      });
      expectStatus(login, 200);
      const [, payload = ""] = str(login.body.token).split(".");
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<
        string,
        unknown
      >;
      const id = str(signup.body.user?.id);
      expect(claims).toMatchObject({ sub: id, id, email: "new.person@example.com", is_admin: false });
      expect(Number(claims.exp) - Number(claims.iat)).toBe(7 * 24 * 3600);
    });

    it("logs in case-insensitively; a wrong password and an unknown email get the same 401", async () => {
      const { api } = world();
      const ok = await api.post("/api/auth/login", {
        body: { email: user.email.toUpperCase(), password: PASSWORD },
      });
      expectStatus(ok, 200);
      expect(ok.body).toMatchObject({ success: true, token: expect.any(String), user: { id: user.id } });
      const wrong = await api.post("/api/auth/login", {
        body: { email: user.email, password: "wrong-password" },
      });
      const unknown = await api.post("/api/auth/login", {
        body: { email: "nobody@example.com", password: PASSWORD },
      });
      expectError(wrong, 401, "invalid_credentials");
      expectError(unknown, 401, "invalid_credentials");
      expect(unknown.body).toEqual(wrong.body);
    });

    it("answers me for a JWT and an API key, null without credentials, 401 for a bad one", async () => {
      const { api } = world();
      const expected = {
        id: user.id,
        email: user.email,
        is_admin: false,
        account_type: "personal",
        email_verified: false,
      };
      const byJwt = await api.get("/api/auth/me", { token: user.token });
      expectStatus(byJwt, 200);
      expect(byJwt.body.user).toMatchObject(expected);
      expect(Object.keys(byJwt.body.user ?? {}).sort()).toEqual(
        [
          "account_type",
          "active_listings_count",
          "created_at",
          "display_name",
          "email",
          "email_verified",
          "id",
          "is_admin",
        ].sort(),
      );
      const byKey = await api.get("/api/auth/me", { apiKey: user.key });
      expectStatus(byKey, 200);
      expect(byKey.body.user).toMatchObject(expected);
      expect((await api.get("/api/auth/me")).body).toEqual({ user: null });
      expectError(await api.get("/api/auth/me", { token: "not.a.jwt" }), 401, "unauthenticated");
      expectError(await api.get("/api/auth/me", { apiKey: `psm_${"0".repeat(64)}` }), 401, "unauthenticated");
    });

    it("logs out with 200 {success: true} and no server state", async () => {
      const { api } = world();
      const reply = await api.post("/api/auth/logout", { token: user.token });
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ success: true });
      expect((await api.post("/api/auth/logout")).body).toEqual({ success: true });
      expectStatus(await api.get("/api/auth/me", { token: user.token }), 200);
    });

    it("answers reset-password 200 {success: true} for known and unknown addresses, 400 without one", async () => {
      const { api } = world();
      for (const email of [user.email, "unknown-person@example.com"]) {
        const reply = await api.post("/api/auth/reset-password", { body: { email } });
        expectStatus(reply, 200);
        expect(reply.body).toEqual({ success: true });
      }
      expectError(await api.post("/api/auth/reset-password", { body: {} }), 400, "invalid_input");
      expectError(await api.post("/api/auth/reset-password", { body: { email: "not-an-email" } }), 400);
    });

    it("refuses update-password with an invalid token (400) or a short password", async () => {
      const { api } = world();
      const bad = await api.post("/api/auth/update-password", {
        body: { token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", new_password: "long-enough" },
      });
      expectError(bad, 400, "reset_token_invalid");
      expectError(
        await api.post("/api/auth/update-password", { body: { new_password: "long-enough" } }),
        400,
      );
      expectError(
        await api.post("/api/auth/update-password", { body: { token: "abc", new_password: "123" } }),
        400,
      );
    });

    it("updates the display name with a JWT only: an API key or no credentials is 401", async () => {
      const { api } = world();
      const reply = await api.put("/api/users/update", {
        token: user.token,
        body: { display_name: "Renamed" },
      });
      expectStatus(reply, 200);
      expect(reply.body).toMatchObject({ success: true, user: { id: user.id, display_name: "Renamed" } });
      expect((await api.get("/api/auth/me", { token: user.token })).body.user?.display_name).toBe("Renamed");
      const byKey = await api.put("/api/users/update", { apiKey: user.key, body: { display_name: "Agent" } });
      expectError(byKey, 401, "unauthenticated");
      expectError(
        await api.put("/api/users/update", { body: { display_name: "Nobody" } }),
        401,
        "unauthenticated",
      );
      expectError(await api.put("/api/users/update", { token: user.token, body: {} }), 400, "invalid_input");
      expect((await api.get("/api/auth/me", { token: user.token })).body.user?.display_name).toBe("Renamed");
    });
  });
}
