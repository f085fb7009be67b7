import { ERROR_MESSAGES, type ErrorCode, isMarketplaceError, MarketplaceError } from "@psm/core";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "./config.js";
import type { AppEnv } from "./env.js";

/** The only code -> status table (interface Errors table, decisions.md). */
export const ERROR_STATUS: Readonly<Record<ErrorCode, ContentfulStatusCode>> = {
  invalid_input: 400,
  invalid_json: 400,
  email_taken: 400,
  reset_token_invalid: 400,
  unsupported_document: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  admin_required: 403,
  cannot_delete_admin: 403,
  listing_limit_reached: 403,
  email_unverified: 403,
  listing_not_found: 404,
  user_not_found: 404,
  key_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  document_unreadable: 422,
  rate_limited: 429,
  document_parser_busy: 503,
  service_unavailable: 503,
  internal_error: 500,
};

/** The wire shape of every error. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
}

/** Answers `{error, code}` with the status of `code` (and Retry-After when given). */
export function errorResponse(
  c: Context<AppEnv>,
  code: ErrorCode,
  message?: string,
  retryAfter?: number,
): Response {
  if (retryAfter !== undefined) c.header("Retry-After", String(Math.max(0, Math.ceil(retryAfter))));
  // The unread rest of an oversized body makes the socket unusable: say so,
  // rather than promise keep-alive and have the server drop it a moment later.
  if (code === "payload_too_large") c.header("Connection", "close");
  const body: ErrorBody = { error: message ?? ERROR_MESSAGES[code], code };
  return c.json(body, ERROR_STATUS[code]);
}

// Hono's own exceptions (a body limit without onError, a malformed form) carry a
// status only; translate it to the nearest code so the shape stays {error, code}.
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: "invalid_input",
  401: "unauthenticated",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  429: "rate_limited",
  503: "service_unavailable",
};

/** The one onError: expected failures by code, anything else a logged 500 that never leaks. */
export function createErrorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (err, c) => {
    if (isMarketplaceError(err) && err.code !== "internal_error") {
      return errorResponse(c, err.code, err.message, err.retryAfter);
    }
    if (err instanceof HTTPException && HTTP_EXCEPTION_CODES[err.status]) {
      return errorResponse(c, HTTP_EXCEPTION_CODES[err.status] as ErrorCode);
    }
    logger.error(
      { reqId: c.get("requestId"), method: c.req.method, path: c.req.path, err: describe(err) },
      "unhandled error",
    );
    return errorResponse(c, "internal_error");
  };
}

/** The one notFound: 405 with Allow when the path exists under other methods, else 404. */
export function createNotFoundHandler(allowedMethods: (path: string) => string[]): NotFoundHandler<AppEnv> {
  return (c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length === 0) return errorResponse(c, "not_found");
    c.header("Allow", allowed.join(", "));
    return errorResponse(c, "method_not_allowed");
  };
}

/** Throws `invalid_input` with a message naming the field, the wording of core's validate(). */
export function invalidInput(message: string): MarketplaceError {
  return new MarketplaceError("invalid_input", message);
}

function describe(err: unknown): { name: string; message: string; stack?: string | undefined } {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: typeof err, message: String(err) };
}
