import { isMarketplaceError, updatePasswordSchema } from "@psm/core";
import { Hono } from "hono";
import { describeRoute, resolver } from "hono-openapi";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { messagePage, resetForm } from "../html.js";
import { PAGE_FORM_FIELDS } from "../operations/descriptions.js";
import { wireSchema } from "../registry/wire.js";
import { operation, type RouteKit } from "../route-kit.js";
import { htmlAnswer, readTokenForm, tokenPage } from "./token-page.js";

const tag = "pages";
const EXPIRED =
  "This password-reset link has expired or has already been used. Request a new one from the sign-in page.";
const INCOMPLETE = "This link has no reset token. Open the link from the email again, or request a new one.";
// For the document only: the form's fields under their wire names, described.
const formSchema = wireSchema(
  v.object({ ...updatePasswordSchema.entries, confirmPassword: v.string() }),
  undefined,
  PAGE_FORM_FIELDS,
);

/**
 * The link in the reset mail. Mail scanners fetch links before people click,
 * so the GET only shows a form (and says up front when the link is dead); the
 * token is spent only by the form's POST, which runs the update-password use case.
 */
export function resetPageRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m, config } = kit;
  const app = new Hono<AppEnv>();

  app.get(
    "/reset-password",
    operation(kit, {
      rate: "read",
      tag,
      id: "resetPasswordPage",
      summary: "Password-reset page",
      description: "The form behind the mailed link. Changes nothing: safe for link scanners.",
      ok: {
        200: htmlAnswer("The new-password form"),
        400: htmlAnswer("The link is incomplete, expired or used"),
      },
    }),
    describeRoute({
      parameters: [
        {
          in: "query",
          name: "token",
          required: true,
          description: PAGE_FORM_FIELDS.token,
          schema: { type: "string" },
        },
      ],
    }),
    async (c) => {
      const token = c.req.query("token") ?? "";
      if (token === "") return tokenPage(c, messagePage("Incomplete link", INCOMPLETE, "error"), 400);
      if (!(await m.auth.checkResetToken({ token })))
        return tokenPage(c, messagePage("Link expired", EXPIRED, "error"), 400);
      return tokenPage(c, resetForm(token), 200);
    },
  );

  app.post(
    "/reset-password",
    operation(kit, {
      rate: "write",
      tag,
      id: "resetPasswordSubmit",
      summary: "Submit the password-reset form",
      ok: {
        200: htmlAnswer("Password changed"),
        400: htmlAnswer("Mismatch, too short, or an expired or used link"),
      },
      errors: [413],
    }),
    describeRoute({
      requestBody: {
        required: true,
        content: {
          "application/x-www-form-urlencoded": {
            schema: resolver(formSchema),
            example: {
              token: "token-from-the-mailed-link",
              new_password: "a new long passphrase",
              confirm_password: "a new long passphrase",
            },
          },
        },
      },
    }),
    async (c) => {
      const form = await readTokenForm(c, config.maxJsonBytes);
      if (form instanceof Response) return form;
      const field = (name: string) => form[name] ?? "";
      const token = field("token");
      const password = field("new_password");
      if (token === "") return tokenPage(c, messagePage("Incomplete link", INCOMPLETE, "error"), 400);
      // Checked here, before core, so a typo never spends the single-use token.
      if (password !== field("confirm_password"))
        return tokenPage(c, resetForm(token, "The two passwords do not match."), 400);
      if (password.length < 6) {
        return tokenPage(c, resetForm(token, "The password is too short: use at least 6 characters."), 400);
      }
      if (password.length > 1024) {
        return tokenPage(c, resetForm(token, "The password is too long: use at most 1024 characters."), 400);
      }
      try {
        await m.auth.updatePassword({ token, newPassword: password });
      } catch (err) {
        // A token core refuses as malformed is, to a person, the same dead link.
        const deadLink =
          isMarketplaceError(err, "reset_token_invalid") ||
          (isMarketplaceError(err, "invalid_input") && err.message.startsWith("token"));
        if (deadLink) return tokenPage(c, messagePage("Link expired", EXPIRED, "error"), 400);
        if (isMarketplaceError(err, "invalid_input")) return tokenPage(c, resetForm(token, err.message), 400);
        throw err;
      }
      const done = "Your password has been changed. You can now sign in with your new password.";
      return tokenPage(c, messagePage("Password changed", done, "ok"), 200);
    },
  );

  return app;
}
