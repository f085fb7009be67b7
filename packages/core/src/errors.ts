/**
 * The closed set of failure codes the marketplace can report. Each travels to
 * callers as `code` beside the human `error` message.
 */
export type ErrorCode =
  | "invalid_input"
  | "invalid_json"
  | "email_taken"
  | "unauthenticated"
  | "api_key_expired"
  | "api_key_revoked"
  | "invalid_credentials"
  | "forbidden"
  | "admin_required"
  | "insufficient_scope"
  | "cannot_delete_admin"
  | "listing_limit_reached"
  | "email_unverified"
  | "listing_not_found"
  | "user_not_found"
  | "key_not_found"
  | "webhook_not_found"
  | "webhook_limit_reached"
  | "webhook_url_forbidden"
  | "saved_search_not_found"
  | "saved_search_limit_reached"
  | "reset_token_invalid"
  | "verification_token_invalid"
  | "unsubscribe_link_invalid"
  | "unsupported_document"
  | "document_unreadable"
  | "document_parser_busy"
  | "payload_too_large"
  | "invalid_idempotency_key"
  | "idempotency_in_flight"
  | "idempotency_key_reused"
  | "idempotency_limit_reached"
  | "rate_limited"
  | "not_found"
  | "method_not_allowed"
  | "service_unavailable"
  | "internal_error";

/** The one wire message for each code; a thrown error may carry a more specific one. */
export const ERROR_MESSAGES: Readonly<Record<ErrorCode, string>> = {
  invalid_input: "Invalid input",
  invalid_json: "Malformed JSON body",
  email_taken: "Email already registered",
  unauthenticated: "Authentication required",
  api_key_expired: "This API key has expired",
  api_key_revoked: "This API key has been deactivated",
  invalid_credentials: "Invalid email or password",
  forbidden: "Forbidden",
  admin_required: "Admin access required",
  insufficient_scope: "This credential's scopes do not allow this",
  cannot_delete_admin: "Cannot delete an admin",
  listing_limit_reached: "Listing limit reached",
  email_unverified: "Verify your email address first: follow the link mailed at sign-up",
  listing_not_found: "Listing not found",
  user_not_found: "User not found",
  key_not_found: "API key not found",
  webhook_not_found: "Webhook not found",
  webhook_limit_reached: "Webhook limit reached: at most 10 per user",
  webhook_url_forbidden: "This URL may not receive webhooks",
  saved_search_not_found: "Saved search not found",
  saved_search_limit_reached: "Saved search limit reached: at most 20 per user",
  reset_token_invalid: "Invalid or expired token",
  verification_token_invalid: "Invalid, expired or already used verification link",
  unsubscribe_link_invalid: "This unsubscribe link is not valid",
  unsupported_document: "Unsupported document",
  document_unreadable: "The document could not be read in time",
  document_parser_busy: "Document parser busy, try again shortly",
  payload_too_large: "Payload too large",
  invalid_idempotency_key: "Idempotency-Key must be 1 to 255 visible ASCII characters",
  idempotency_in_flight: "A request with this Idempotency-Key is still running; retry after it ends",
  idempotency_key_reused: "This Idempotency-Key was used with a different request",
  idempotency_limit_reached:
    "Too many stored answers under Idempotency-Key for this caller; retry later, or send the request without one",
  rate_limited: "Too many requests",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  service_unavailable: "Service unavailable",
  internal_error: "Internal server error",
};

/** Every error code, for documentation (OpenAPI, capabilities). */
export const ERROR_CODES = Object.keys(ERROR_MESSAGES) as ErrorCode[];

/**
 * One problem with one field of a command: the field as a dot path in the
 * caller's words (`contactEmail`, `images.3`) and a message that starts with
 * it ("contactEmail: must be a valid email address"), as `error` would say it
 * were this the only problem.
 */
export interface FieldIssue {
  readonly field: string;
  readonly message: string;
}

/** An expected failure of a use case or adapter, mapped to a status once at the edge. */
export class MarketplaceError extends Error {
  override readonly name = "MarketplaceError";
  readonly code: ErrorCode;
  /** Seconds a caller should wait before retrying (rate limits, busy pools). */
  readonly retryAfter: number | undefined;
  /**
   * The input field at fault, as a dot path in the caller's words (`contactEmail`,
   * `images.3`); the message then starts with it, so an edge that speaks other
   * words (the wire's `contact_email`) can say the same thing in its own.
   */
  readonly field: string | undefined;
  /**
   * Every problem of an `invalid_input` with a field of the command, in the
   * schema's order, the first being `field`'s: a form shows them all from one
   * call. A problem with the input as a whole (not an object) has no entry;
   * it is only ever alone, and `message` says it. Empty for other codes.
   */
  readonly issues: readonly FieldIssue[];

  constructor(
    code: ErrorCode,
    message?: string,
    options?: {
      retryAfter?: number | undefined;
      cause?: unknown;
      field?: string | undefined;
      issues?: readonly FieldIssue[] | undefined;
    },
  ) {
    super(
      message ?? ERROR_MESSAGES[code],
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.retryAfter = options?.retryAfter;
    this.field = options?.field;
    const field = options?.field;
    this.issues =
      options?.issues ??
      (code === "invalid_input" && field !== undefined ? [{ field, message: this.message }] : []);
  }
}

/** `invalid_input` about one field of a command: "expiresAt: must be in the future". */
export function invalidField(field: string, reason: string): MarketplaceError {
  const message = `${field}: ${reason}`;
  return new MarketplaceError("invalid_input", message, { field, issues: [{ field, message }] });
}

/** True when `value` is a MarketplaceError, optionally of one code. */
export function isMarketplaceError(value: unknown, code?: ErrorCode): value is MarketplaceError {
  return value instanceof MarketplaceError && (code === undefined || value.code === code);
}
