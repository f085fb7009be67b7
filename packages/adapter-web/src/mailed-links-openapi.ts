import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, TOKEN_MAX_LENGTH } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";

// decisions.md: /openapi.json describes every route the server serves, the reset page included.
// The mailed-link pages describe themselves, as adapter-mcp's routes do; the document (built by
// adapter-http from the whole server) lists them only where they are mounted.

const TAGS = ["pages"];

const html = (description: string) => ({
  description,
  content: { "text/html": { schema: { type: "string" as const } } },
});

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** What the host answers on these routes as `{error, code}`: a bad credential, a limiter, a fault. */
const HOST_ERRORS = {
  401: error("Missing credentials on a protected route, or a presented credential that is invalid"),
  429: {
    ...error("Rate limited"),
    headers: {
      "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" as const } },
    },
  },
  500: error("Internal server error"),
};

const TOKEN =
  "The token of the mailed link (the link's `token` query parameter): single use, valid 1 hour for a password reset, 24 hours for an address verification.";

const tokenQuery = {
  parameters: [
    {
      in: "query" as const,
      name: "token",
      required: true,
      description: TOKEN,
      schema: { type: "string" as const },
    },
  ],
};

const tokenField = { type: "string" as const, minLength: 1, maxLength: TOKEN_MAX_LENGTH, description: TOKEN };
const between = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH.toLocaleString("en-US")} characters`;

/** A url-encoded form body of these fields, all required, with its example. */
function formBody(properties: Record<string, object>, example: Record<string, string>) {
  return {
    required: true,
    content: {
      "application/x-www-form-urlencoded": {
        schema: { type: "object" as const, properties, required: Object.keys(properties) },
        example,
      },
    },
  };
}

/** GET /reset-password. */
export const describeResetPage: MiddlewareHandler = describeRoute({
  operationId: "resetPasswordPage",
  summary: "Password-reset page",
  description: "The form behind the mailed link. Changes nothing: safe for link scanners.",
  tags: TAGS,
  security: [],
  responses: {
    200: html("The new-password form"),
    400: html("The link is incomplete, expired or used"),
    ...HOST_ERRORS,
  },
  ...tokenQuery,
});

/** POST /reset-password. */
export const describeResetSubmit: MiddlewareHandler = describeRoute({
  operationId: "resetPasswordSubmit",
  summary: "Submit the password-reset form",
  tags: TAGS,
  security: [],
  responses: {
    200: html("Password changed"),
    400: html("Mismatch, too short, or an expired or used link"),
    413: error("Payload too large"),
    ...HOST_ERRORS,
  },
  requestBody: formBody(
    {
      token: tokenField,
      new_password: {
        type: "string",
        minLength: PASSWORD_MIN_LENGTH,
        maxLength: PASSWORD_MAX_LENGTH,
        description: `The new password, ${between}; it replaces the old one and ends every JWT issued before.`,
      },
      confirm_password: {
        type: "string",
        description: "The new password again; it must equal new_password.",
      },
    },
    {
      token: "token-from-the-mailed-link",
      new_password: "a new long passphrase",
      confirm_password: "a new long passphrase",
    },
  ),
});

/** GET /verify-email. */
export const describeVerifyPage: MiddlewareHandler = describeRoute({
  operationId: "verifyEmailPage",
  summary: "Address-verification page",
  description: "The confirm button behind the mailed link. Changes nothing: safe for link scanners.",
  tags: TAGS,
  security: [],
  responses: {
    200: html("The confirm button"),
    400: html("The link is incomplete, expired or used"),
    ...HOST_ERRORS,
  },
  ...tokenQuery,
});

/** POST /verify-email. */
export const describeVerifySubmit: MiddlewareHandler = describeRoute({
  operationId: "verifyEmailSubmit",
  summary: "Confirm the address",
  tags: TAGS,
  security: [],
  responses: {
    200: html("Address confirmed"),
    400: html("An incomplete, expired or used link"),
    413: error("Payload too large"),
    ...HOST_ERRORS,
  },
  requestBody: formBody({ token: tokenField }, { token: "token-from-the-mailed-link" }),
});

const UNSUBSCRIBE_TOKEN =
  "The token of a notification mail's unsubscribe link (its `token` query parameter): it names one user and one kind of mail, and never expires.";

/** GET /unsubscribe. */
export const describeUnsubscribePage: MiddlewareHandler = describeRoute({
  operationId: "unsubscribePage",
  summary: "Unsubscribe page",
  description:
    "The button behind a notification mail's unsubscribe link. Changes nothing: safe for link scanners.",
  tags: TAGS,
  security: [],
  responses: {
    200: html("The unsubscribe button"),
    400: html("The link is incomplete or not valid"),
    ...HOST_ERRORS,
  },
  parameters: [
    {
      in: "query",
      name: "token",
      required: true,
      description: UNSUBSCRIBE_TOKEN,
      schema: { type: "string" },
    },
  ],
});

/** POST /unsubscribe. */
export const describeUnsubscribeSubmit: MiddlewareHandler = describeRoute({
  operationId: "unsubscribeSubmit",
  summary: "Unsubscribe in one click (RFC 8058)",
  description:
    "Turns off the kind of notification mail the token names, with no sign-in. Mail clients POST `List-Unsubscribe=One-Click` to the link itself (the token in the query); the page's button posts the token in the form.",
  tags: TAGS,
  security: [],
  responses: {
    200: html("Unsubscribed (a second time changes nothing)"),
    400: html("The link is incomplete or not valid"),
    413: error("Payload too large"),
    ...HOST_ERRORS,
  },
  parameters: [
    {
      in: "query",
      name: "token",
      required: false,
      description: UNSUBSCRIBE_TOKEN,
      schema: { type: "string" },
    },
  ],
  requestBody: formBody(
    { token: { type: "string", description: `${UNSUBSCRIBE_TOKEN} Required unless in the query.` } },
    { token: "token-from-the-mailed-link" },
  ),
});
