import { isMarketplaceError, verifyEmailSchema } from "@psm/core";
import { Hono } from "hono";
import { describeRoute, resolver } from "hono-openapi";
import type { AppEnv } from "../env.js";
import { escapeHtml, htmlPage, messagePage } from "../html.js";
import { PAGE_FORM_FIELDS } from "../operations/descriptions.js";
import { wireSchema } from "../registry/wire.js";
import { operation, type RouteKit } from "../route-kit.js";
import { htmlAnswer, readTokenForm, tokenPage } from "./token-page.js";

const tag = "pages";
const DEAD =
  "This verification link has expired or has already been used. Nothing was changed: you can ignore it.";
const INCOMPLETE = "This link has no verification token. Open the link from the email again.";
const DONE = "Your email address is confirmed. You can close this page.";

/**
 * The link in the sign-up mail. Mail scanners fetch links before people
 * click, so the GET only asks (and says up front when the link is dead); the
 * token is spent only by the form's POST, which runs the verify-email use case.
 */
export function verifyEmailPageRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m, config } = kit;
  const app = new Hono<AppEnv>();

  app.get(
    "/verify-email",
    operation(kit, {
      rate: "read",
      tag,
      id: "verifyEmailPage",
      summary: "Address-verification page",
      description: "The confirm button behind the mailed link. Changes nothing: safe for link scanners.",
      ok: {
        200: htmlAnswer("The confirm button"),
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
      if (!(await m.auth.checkVerificationToken({ token })))
        return tokenPage(c, messagePage("Link expired", DEAD, "error"), 400);
      return tokenPage(c, confirmForm(token), 200);
    },
  );

  app.post(
    "/verify-email",
    operation(kit, {
      rate: "write",
      tag,
      id: "verifyEmailSubmit",
      summary: "Confirm the address",
      ok: { 200: htmlAnswer("Address confirmed"), 400: htmlAnswer("An incomplete, expired or used link") },
      errors: [413],
    }),
    describeRoute({
      requestBody: {
        required: true,
        content: {
          "application/x-www-form-urlencoded": {
            schema: resolver(wireSchema(verifyEmailSchema, undefined, PAGE_FORM_FIELDS)),
            example: { token: "token-from-the-mailed-link" },
          },
        },
      },
    }),
    async (c) => {
      const form = await readTokenForm(c, config.maxJsonBytes);
      if (form instanceof Response) return form;
      const token = form.token ?? "";
      if (token === "") return tokenPage(c, messagePage("Incomplete link", INCOMPLETE, "error"), 400);
      try {
        await m.auth.verifyEmail({ token });
      } catch (err) {
        // A token core refuses as malformed is, to a person, the same dead link.
        if (isMarketplaceError(err, "verification_token_invalid") || isMarketplaceError(err, "invalid_input"))
          return tokenPage(c, messagePage("Link expired", DEAD, "error"), 400);
        throw err;
      }
      return tokenPage(c, messagePage("Address confirmed", DONE, "ok"), 200);
    },
  );

  return app;
}

/** The question the mail asks again, and the one button that spends the token. */
function confirmForm(token: string): string {
  return htmlPage(
    "Confirm your email address",
    `<h1>Confirm your email address</h1>
<p>An account was created with this email address. Confirm only if you created it yourself.</p>
<p>If you did not, close this page: nothing changes. To take the address back, ask for a password reset from the sign-in page.</p>
<form method="post" action="/verify-email">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Yes, I created this account</button>
</form>`,
  );
}
