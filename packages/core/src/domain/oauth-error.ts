/**
 * The error codes OAuth fixes on its own wire (RFC 6749 sections 4.1.2.1 and 5.2, RFC 7591
 * section 3.2.2, RFC 8707 section 2): the OAuth endpoints answer `{error, error_description}`
 * with these, as every OAuth client expects, instead of the API's `{error, code}`.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata";

/**
 * An OAuth request refused. `redirectUri` is where an authorization request's refusal may be told
 * to the client: set only once the client and the redirect URI are known good (RFC 6749 section
 * 4.1.2.1), so an attacker cannot use the server as an open redirector; otherwise the user is told.
 */
export class OAuthError extends Error {
  override readonly name = "OAuthError";
  readonly code: OAuthErrorCode;
  readonly redirectUri: string | undefined;

  constructor(code: OAuthErrorCode, description: string, options: { redirectUri?: string } = {}) {
    super(description);
    this.code = code;
    this.redirectUri = options.redirectUri;
  }

  /** Whether the refusal goes back to the client through its redirect URI. */
  get redirectable(): boolean {
    return this.redirectUri !== undefined;
  }
}

/** True when `value` is an OAuthError. */
export function isOAuthError(value: unknown): value is OAuthError {
  return value instanceof OAuthError;
}
