import {
  logInSchema,
  requestPasswordResetSchema,
  signUpSchema,
  updatePasswordSchema,
  updateUserSchema,
  verifyEmailSchema,
} from "@psm/core";
import { describeError } from "@psm/host";
import type { OperationsConfig } from "../config.js";
import { defineOperation } from "../operation.js";
import { presentUser } from "../presenters.js";
import { LogInAnswer, MeAnswer, SuccessSchema, UserAnswer } from "../wire-schemas.js";
import { ACCOUNT_FIELDS } from "./descriptions.js";

const tag = "auth";

/**
 * /api/auth and /api/users: sign up, log in, me, log out, password reset, verification, display
 * name. `config` gives the reset hook and the logger its failure goes to.
 */
export const authOperations = (config: Pick<OperationsConfig, "onPasswordResetRequested" | "logger">) => [
  defineOperation({
    name: "sign_up",
    method: "POST",
    path: "/api/auth/signup",
    auth: "public",
    rate: "signup",
    private: "always",
    tag,
    summary: "Sign up",
    description: "Create an account.",
    input: {
      schema: signUpSchema,
      from: "body",
      ref: "SignUp",
      describe: ACCOUNT_FIELDS,
      example: { email: "ada@example.com", password: "correct horse battery", display_name: "Ada" },
    },
    ok: { status: 201, schema: UserAnswer },
    handle: async ({ m, command }) => ({ success: true, user: presentUser(await m.auth.signUp(command)) }),
  }),
  defineOperation({
    name: "log_in",
    idempotencyKey: false,
    method: "POST",
    path: "/api/auth/login",
    auth: "public",
    rate: "login",
    private: "always",
    tag,
    summary: "Log in",
    description: "Exchange email and password for a 7-day JWT.",
    input: {
      schema: logInSchema,
      from: "body",
      ref: "LogIn",
      describe: ACCOUNT_FIELDS,
      example: { email: "ada@example.com", password: "correct horse battery" },
    },
    ok: { status: 200, schema: LogInAnswer },
    handle: async ({ m, command }) => {
      const { user, token } = await m.auth.logIn(command);
      return { success: true, user: presentUser(user), token };
    },
  }),
  defineOperation({
    name: "whoami",
    tool: 1,
    useWhen:
      "first, to learn who this connection acts as (and whether it is an admin) before anything that needs credentials",
    method: "GET",
    path: "/api/auth/me",
    auth: "public",
    rate: "read",
    private: "always",
    tag,
    summary: "The calling user",
    description: "The calling user (JWT or API key), or null.",
    input: {},
    ok: { status: 200, schema: MeAnswer },
    handle: async ({ m, actor }) => {
      const user = await m.auth.me(actor);
      return { user: user === null ? null : presentUser(user) };
    },
  }),
  defineOperation({
    name: "log_out",
    idempotencyKey: false,
    method: "POST",
    path: "/api/auth/logout",
    auth: "public",
    rate: "write",
    private: "always",
    tag,
    summary: "Log out",
    description: "Client-side logout; no server state.",
    input: {},
    ok: { status: 200, schema: SuccessSchema },
    // No server state: a JWT stays valid until it expires or the password changes.
    handle: async () => ({ success: true }),
  }),
  defineOperation({
    name: "request_password_reset",
    idempotencyKey: false,
    method: "POST",
    path: "/api/auth/reset-password",
    auth: "public",
    rate: "reset",
    private: "always",
    tag,
    summary: "Request a password-reset mail",
    description: "Mail a password-reset link.",
    input: {
      schema: requestPasswordResetSchema,
      from: "body",
      ref: "RequestPasswordReset",
      describe: ACCOUNT_FIELDS,
      example: { email: "ada@example.com" },
    },
    ok: { status: 200, schema: SuccessSchema },
    handle: async ({ m, command, requestId }) => {
      await m.auth.requestPasswordReset(command);
      // Same answer and timing for every address: the hook only nudges delivery.
      try {
        config.onPasswordResetRequested();
      } catch (err) {
        config.logger.warn({ reqId: requestId, err: describeError(err) }, "onPasswordResetRequested failed");
      }
      return { success: true };
    },
  }),
  defineOperation({
    name: "update_password",
    idempotencyKey: false,
    method: "POST",
    path: "/api/auth/update-password",
    auth: "public",
    rate: "write",
    private: "always",
    tag,
    summary: "Set a new password with a reset token",
    description: "Set a new password with a reset token.",
    input: {
      schema: updatePasswordSchema,
      from: "body",
      ref: "UpdatePassword",
      describe: ACCOUNT_FIELDS,
      example: { token: "token-from-the-mailed-link", new_password: "a new long passphrase" },
    },
    ok: { status: 200, schema: SuccessSchema },
    handle: async ({ m, command }) => {
      await m.auth.updatePassword(command);
      return { success: true };
    },
  }),
  defineOperation({
    name: "verify_email",
    method: "POST",
    path: "/api/auth/verify-email",
    auth: "public",
    rate: "write",
    private: "always",
    tag,
    summary: "Prove the address with the token of the link mailed at sign-up",
    description:
      "Prove the account's address with the token of the link mailed at sign-up. Single use, 24 hours; ends no session or key.",
    input: {
      schema: verifyEmailSchema,
      from: "body",
      ref: "VerifyEmail",
      describe: ACCOUNT_FIELDS,
      example: { token: "token-from-the-mailed-link" },
    },
    ok: { status: 200, schema: UserAnswer },
    handle: async ({ m, command }) => ({
      success: true,
      user: presentUser(await m.auth.verifyEmail(command)),
    }),
  }),
  defineOperation({
    name: "update_user",
    method: "PUT",
    path: "/api/users/update",
    auth: "jwt",
    scope: "account:write",
    rate: "write",
    private: "always",
    tag: "users",
    summary: "Change the caller's display name",
    description: "Change the caller's display name.",
    input: {
      schema: updateUserSchema,
      from: "body",
      ref: "UpdateUser",
      describe: ACCOUNT_FIELDS,
      example: { display_name: "Ada L." },
    },
    ok: { status: 200, schema: UserAnswer },
    handle: async ({ m, actor, command }) => ({
      success: true,
      user: presentUser(await m.users.updateDisplayName(actor, command)),
    }),
  }),
];
