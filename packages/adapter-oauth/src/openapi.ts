import type { MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";

// decisions.md: /openapi.json describes every route the server serves, the authorization server's included.

const OAUTH_ERROR = {
  description: "`{error, error_description}` with an OAuth error code (RFC 6749 section 5.2)",
  content: { "application/json": { schema: { type: "object" as const } } },
};
const FORM = (description: string) => ({
  required: true,
  content: { "application/x-www-form-urlencoded": { schema: { type: "object" as const, description } } },
});
const JSON_DOC = (description: string) => ({ description, content: { "application/json": {} } });
const RATE_LIMITED = { description: "Too many requests", content: { "application/json": {} } };

/** GET /.well-known/oauth-authorization-server. */
export const describeMetadata: MiddlewareHandler = describeRoute({
  operationId: "oauth_authorization_server_metadata",
  summary: "OAuth 2.0 Authorization Server Metadata (RFC 8414)",
  tags: ["oauth"],
  security: [],
  responses: { 200: JSON_DOC("The metadata; the issuer is PUBLIC_URL"), 429: RATE_LIMITED },
});

/** GET /.well-known/oauth-protected-resource/api. */
export const describeApiResource: MiddlewareHandler = describeRoute({
  operationId: "api_protected_resource",
  summary: "OAuth 2.0 Protected Resource Metadata of /api (RFC 9728)",
  tags: ["oauth"],
  security: [],
  responses: {
    200: JSON_DOC("The metadata, naming this server as the authorization server"),
    429: RATE_LIMITED,
  },
});

/** POST /oauth/token. */
export const describeToken: MiddlewareHandler = describeRoute({
  operationId: "oauth_token",
  summary: "Token endpoint: authorization_code (with PKCE) and refresh_token grants",
  description:
    "Public clients send `client_id` in the form. Access tokens last 1 hour and are bound to `resource` " +
    "(RFC 8707: /mcp, /api or both); refresh tokens rotate on use, and a reused one revokes its grant.",
  tags: ["oauth"],
  security: [],
  requestBody: FORM(
    "grant_type, client_id, code, redirect_uri, code_verifier, refresh_token, scope, resource",
  ),
  responses: {
    200: JSON_DOC("`{access_token, token_type, expires_in, refresh_token, scope}`"),
    400: OAUTH_ERROR,
    401: OAUTH_ERROR,
    413: OAUTH_ERROR,
    429: RATE_LIMITED,
  },
});

/** POST /oauth/register. */
export const describeRegister: MiddlewareHandler = describeRoute({
  operationId: "oauth_register",
  summary: "Dynamic client registration of a public client (RFC 7591)",
  tags: ["oauth"],
  security: [],
  requestBody: {
    required: true,
    content: { "application/json": { schema: { type: "object" as const, description: "Client metadata" } } },
  },
  responses: {
    201: JSON_DOC("The client: `client_id`, `redirect_uris`, `token_endpoint_auth_method: none`"),
    400: OAUTH_ERROR,
    413: OAUTH_ERROR,
    429: RATE_LIMITED,
  },
});

/** POST /oauth/revoke. */
export const describeRevoke: MiddlewareHandler = describeRoute({
  operationId: "oauth_revoke",
  summary: "Token revocation (RFC 7009): an access or refresh token ends its whole grant",
  tags: ["oauth"],
  security: [],
  requestBody: FORM("token, token_type_hint, client_id"),
  responses: { 200: { description: "Revoked, or nothing to revoke" }, 400: OAUTH_ERROR, 429: RATE_LIMITED },
});
