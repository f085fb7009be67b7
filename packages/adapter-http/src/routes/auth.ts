import {
  logInSchema,
  requestPasswordResetSchema,
  signUpSchema,
  updatePasswordSchema,
  verifyEmailSchema,
} from "@psm/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { presentUser } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { SuccessSchema, UserSchema } from "../wire-schemas.js";

const tag = "auth";

/** /api/auth: sign up, log in, me, log out, password reset, address verification. */
export function authRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m, config } = kit;
  const app = new Hono<AppEnv>();

  app.post(
    "/signup",
    operation(kit, {
      capability: "sign_up",
      rate: "signup",
      tag,
      summary: "Sign up",
      ok: { 201: v.object({ success: v.literal(true), user: UserSchema }) },
      body: { schema: signUpSchema, name: "SignUp" },
    }),
    async (c) => {
      const user = await m.auth.signUp(c.get("body"));
      return c.json({ success: true, user: presentUser(user) }, 201);
    },
  );

  app.post(
    "/login",
    operation(kit, {
      capability: "log_in",
      rate: "login",
      tag,
      summary: "Log in",
      ok: { 200: v.object({ success: v.literal(true), user: UserSchema, token: v.string() }) },
      body: { schema: logInSchema, name: "LogIn" },
    }),
    async (c) => {
      const { user, token } = await m.auth.logIn(c.get("body"));
      return c.json({ success: true, user: presentUser(user), token });
    },
  );

  app.get(
    "/me",
    operation(kit, {
      capability: "me",
      rate: "read",
      tag,
      summary: "The calling user",
      ok: { 200: v.object({ user: v.nullable(UserSchema) }) },
    }),
    async (c) => {
      const user = await m.auth.me(c.get("actor"));
      return c.json({ user: user === null ? null : presentUser(user) });
    },
  );

  app.post(
    "/logout",
    operation(kit, {
      capability: "log_out",
      rate: "write",
      tag,
      summary: "Log out",
      ok: { 200: SuccessSchema },
    }),
    // No server state: a JWT stays valid until it expires or the password changes.
    async (c) => c.json({ success: true }),
  );

  app.post(
    "/reset-password",
    operation(kit, {
      capability: "request_password_reset",
      rate: "reset",
      tag,
      summary: "Request a password-reset mail",
      ok: { 200: SuccessSchema },
      body: { schema: requestPasswordResetSchema, name: "RequestPasswordReset" },
    }),
    async (c) => {
      await m.auth.requestPasswordReset(c.get("body"));
      // Same answer and timing for every address: the hook only nudges delivery.
      try {
        config.onPasswordResetRequested();
      } catch (err) {
        config.logger.warn(
          { reqId: c.get("requestId"), err: String(err) },
          "onPasswordResetRequested failed",
        );
      }
      return c.json({ success: true });
    },
  );

  app.post(
    "/update-password",
    operation(kit, {
      capability: "update_password",
      rate: "write",
      tag,
      summary: "Set a new password with a reset token",
      ok: { 200: SuccessSchema },
      body: { schema: updatePasswordSchema, name: "UpdatePassword" },
    }),
    async (c) => {
      await m.auth.updatePassword(c.get("body"));
      return c.json({ success: true });
    },
  );

  app.post(
    "/verify-email",
    operation(kit, {
      capability: "verify_email",
      rate: "write",
      tag,
      summary: "Prove the address with the token of the link mailed at sign-up",
      description:
        "Single use, 24 hours. Marks the address proven (`email_verified`); ends no session or key.",
      ok: { 200: v.object({ success: v.literal(true), user: UserSchema }) },
      body: { schema: verifyEmailSchema, name: "VerifyEmail" },
    }),
    async (c) => {
      const user = await m.auth.verifyEmail(c.get("body"));
      return c.json({ success: true, user: presentUser(user) });
    },
  );

  return app;
}
