import { isMarketplaceError, isOAuthError, type OAuthErrorCode, type TokenSet } from "@psm/core";
import { mediaType, readBody, strictPairs } from "@psm/host";
import type { Context } from "hono";

/** The largest body of a token, registration or revocation request: these are a few hundred bytes. */
export const MAX_OAUTH_BODY_BYTES = 16 * 1024;
/** A slow body is cut: nothing here needs more than a moment to send. */
const BODY_DEADLINE_MS = 10_000;

/** A form body as OAuth sends it: the first value of each name, and every `resource` (RFC 8707 repeats it). */
export interface OAuthForm {
  get(name: string): string | undefined;
  resources: string[];
}

/** Reads an application/x-www-form-urlencoded body within the bounds above. */
export async function readOAuthForm(c: Context): Promise<OAuthForm> {
  if (mediaType(c.req.header("content-type") ?? "") !== "application/x-www-form-urlencoded") {
    throw new WireError("invalid_request", "Send the request as application/x-www-form-urlencoded");
  }
  const { bytes } = await readBody(c, { maxBytes: MAX_OAUTH_BODY_BYTES, deadlineMs: BODY_DEADLINE_MS });
  const fields = new Map<string, string>();
  const resources: string[] = [];
  for (const { name, value } of strictPairs(new TextDecoder().decode(bytes), "form", { maxPairs: 50 })) {
    if (name === "resource") resources.push(value);
    else if (!fields.has(name)) fields.set(name, value);
  }
  return { get: (name) => fields.get(name), resources };
}

/** An OAuth refusal of the wire itself (a content type, a grant type), answered like core's. */
export class WireError extends Error {
  readonly code: OAuthErrorCode;

  constructor(code: OAuthErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The statuses of RFC 6749 section 5.2 and RFC 7591 section 3.2.2: 400, and 401 for a client that is not known. */
function statusOf(code: OAuthErrorCode): 400 | 401 {
  return code === "invalid_client" ? 401 : 400;
}

/**
 * The answer to a refused OAuth request, `{error, error_description}`, never stored. Body errors
 * of the host (too large, not UTF-8, too slow) become `invalid_request` with the host's status.
 * Anything else is not a refusal: undefined, for the host to answer.
 */
export function oauthErrorResponse(c: Context, error: unknown): Response | undefined {
  c.header("Cache-Control", "no-store");
  if (isOAuthError(error) || error instanceof WireError) {
    if (error.code === "invalid_client") c.header("WWW-Authenticate", 'Bearer error="invalid_client"');
    return c.json({ error: error.code, error_description: error.message }, statusOf(error.code));
  }
  if (isMarketplaceError(error, "invalid_input") || isMarketplaceError(error, "invalid_json")) {
    return c.json({ error: "invalid_request", error_description: error.message }, 400);
  }
  if (isMarketplaceError(error, "payload_too_large")) {
    c.header("Connection", "close");
    return c.json({ error: "invalid_request", error_description: error.message }, 413);
  }
  return undefined;
}

/** The token endpoint's answer (RFC 6749 section 5.1), never stored. */
export function tokenResponse(c: Context, tokens: TokenSet): Response {
  c.header("Cache-Control", "no-store");
  c.header("Pragma", "no-cache");
  return c.json({
    access_token: tokens.accessToken,
    token_type: "Bearer",
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: tokens.scopes.join(" "),
  });
}
