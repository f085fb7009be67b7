import { ERROR_MESSAGES, type ErrorCode, isMarketplaceError } from "@psm/core";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HostEnv } from "../env.js";
import type { Logger } from "./logger.js";

/** The only code -> status table (interface Errors table, decisions.md). */
export const ERROR_STATUS: Readonly<Record<ErrorCode, ContentfulStatusCode>> = {
  invalid_input: 400,
  invalid_json: 400,
  email_taken: 400,
  reset_token_invalid: 400,
  verification_token_invalid: 400,
  unsubscribe_link_invalid: 400,
  unsupported_document: 400,
  invalid_idempotency_key: 400,
  webhook_url_forbidden: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  api_key_expired: 401,
  api_key_revoked: 401,
  forbidden: 403,
  admin_required: 403,
  insufficient_scope: 403,
  cannot_delete_admin: 403,
  listing_limit_reached: 403,
  webhook_limit_reached: 403,
  saved_search_limit_reached: 403,
  email_unverified: 403,
  listing_not_found: 404,
  user_not_found: 404,
  key_not_found: 404,
  webhook_not_found: 404,
  saved_search_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_in_flight: 409,
  payload_too_large: 413,
  document_unreadable: 422,
  idempotency_key_reused: 422,
  idempotency_limit_reached: 429,
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
export function errorResponse(c: Context, code: ErrorCode, message?: string, retryAfter?: number): Response {
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

/**
 * The one onError: expected failures by code, anything else a logged 500 that
 * never leaks. The log line carries the whole cause chain (a storage adapter
 * wraps the driver's error in `internal_error`), so the answer's generic
 * wording is never all the operator sees. A request whose client went away
 * mid-body is the client's doing: logged at info, answered 400 (nobody reads
 * it; the access log shows a client error, not a server one).
 */
export function createErrorHandler(logger: Logger): ErrorHandler<HostEnv> {
  return (err, c) => {
    const where = () => ({ reqId: c.get("requestId"), method: c.req.method, path: c.req.path });
    const aborted = () => {
      logger.info({ ...where(), reason: describeError(err).message }, "request aborted by the client");
      c.header("Connection", "close");
    };
    if (isMarketplaceError(err) && err.code !== "internal_error") {
      if (ERROR_STATUS[err.code] >= 500) {
        // A dependency gone (a PostgreSQL connection refused): the caller gets 503, the operator the why.
        if (err.cause !== undefined)
          logger.warn({ ...where(), err: describeError(err) }, "dependency failure");
      } else if (isClientAbort(c, err)) aborted();
      return errorResponse(c, err.code, err.message, err.retryAfter);
    }
    if (err instanceof HTTPException && HTTP_EXCEPTION_CODES[err.status]) {
      return errorResponse(c, HTTP_EXCEPTION_CODES[err.status] as ErrorCode);
    }
    if (isClientAbort(c, err)) {
      aborted();
      return errorResponse(c, "invalid_input", "The request was aborted before its body arrived");
    }
    logger.error({ ...where(), err: describeError(err) }, "unhandled error");
    return errorResponse(c, "internal_error");
  };
}

/** The one notFound: 405 with Allow when the path exists under other methods, else 404. */
export function createNotFoundHandler(allowedMethods: (path: string) => string[]): NotFoundHandler<HostEnv> {
  return (c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length === 0) return errorResponse(c, "not_found");
    c.header("Allow", allowed.join(", "));
    return errorResponse(c, "method_not_allowed");
  };
}

/** An error as a log line carries it: plain data, the cause chain included. */
export interface ErrorDescription {
  name: string;
  message: string;
  /** The driver's or the runtime's code: SQLite's `SQLITE_…`, PostgreSQL's SQLSTATE, `ECONNREFUSED`. */
  code?: string | number;
  stack?: string;
  cause?: ErrorDescription;
  /** The errors of an AggregateError (a connection refused on every address of a host). */
  errors?: ErrorDescription[];
}

const MAX_CAUSE_DEPTH = 8;
// drizzle's DrizzleQueryError message ends in the query's parameters: emails, hashes, user text.
const QUERY_PARAMS = /\nparams: [\s\S]*$/;

/**
 * Describes `err` for a log line: name, message, code, stack, and the same for
 * each `cause` (bounded, cycles cut). Query parameters are cut from messages:
 * the SQL says what failed, the values are users' data.
 */
export function describeError(err: unknown, depth = 0): ErrorDescription {
  if (!(err instanceof Error)) return { name: typeof err, message: String(err) };
  const message = err.message.replace(QUERY_PARAMS, "\nparams: [omitted]");
  const out: ErrorDescription = { name: err.name, message };
  const code: unknown = Reflect.get(err, "code");
  if (typeof code === "string" || typeof code === "number") out.code = code;
  // The stack starts with the message: the same parameters are cut there too.
  if (err.stack !== undefined) out.stack = err.stack.replace(err.message, () => message);
  if (depth < MAX_CAUSE_DEPTH) {
    if (err.cause !== undefined && err.cause !== err) out.cause = describeError(err.cause, depth + 1);
    if (err instanceof AggregateError && Array.isArray(err.errors)) {
      out.errors = err.errors.slice(0, 5).map((inner: unknown) => describeError(inner, depth + 1));
    }
  }
  return out;
}

/**
 * Whether `err` comes of the client closing the connection mid-body: Node's
 * request stream errors with "aborted" (ECONNRESET) and @hono/node-server
 * aborts the request's signal. Once the signal is aborted, the read's own
 * rejection and an expected failure (4xx) a body reader made of it count too;
 * a server error stays one even when the client has left meanwhile.
 */
export function isClientAbort(c: Context, err: unknown): boolean {
  for (let current = err, depth = 0; current instanceof Error && depth < MAX_CAUSE_DEPTH; depth++) {
    if (Reflect.get(current, "code") === "ECONNRESET" && current.message === "aborted") return true;
    current = current.cause;
  }
  if (!(err instanceof Error) || !c.req.raw.signal.aborted) return false;
  if (isMarketplaceError(err)) return ERROR_STATUS[err.code] < 500;
  const reason: unknown = c.req.raw.signal.reason;
  return (
    err === reason ||
    err.message === String(reason) ||
    err.message === "Client connection prematurely closed."
  );
}
