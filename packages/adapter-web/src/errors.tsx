import { ERROR_MESSAGES, type ErrorCode, isMarketplaceError } from "@psm/core";
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { WebEnv } from "./env.js";
import { StillRunning } from "./once.js";
import type { WebConfig } from "./options.js";
import { type Problem, ProblemPage } from "./pages/problem.js";
import { render } from "./render.js";

/** How long to wait, in words. */
function inWords(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.ceil(seconds))} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * The page and status of a failure no form handled. This is the pages' own
 * wording of core's codes (adapter-http keeps the JSON API's table): people
 * get a sentence and a way on, never a code.
 */
function problemOf(
  code: ErrorCode,
  message: string,
  retryAfter: number | undefined,
): [ContentfulStatusCode, Problem] {
  switch (code) {
    case "rate_limited":
      // A limiter with words of its own says them (sign-up: accounts created, and when the next may be).
      if (message !== ERROR_MESSAGES.rate_limited)
        return [429, { title: "Not just now", message: `${message}.` }];
      return [
        429,
        {
          title: "Too many attempts",
          message: `For your security this is paused for a moment. Try again in ${inWords(retryAfter ?? 60)}.`,
        },
      ];
    case "payload_too_large":
      return [413, { title: "Too large", message: "What you sent is larger than this site accepts." }];
    case "listing_not_found":
      return [404, { title: "Listing not found", message: "This listing does not exist or was deleted." }];
    case "user_not_found":
    case "key_not_found":
    case "webhook_not_found":
    case "not_found":
      return [404, { title: "Not found", message: "We could not find what you were looking for." }];
    case "admin_required":
      return [403, { title: "Admins only", message: "This page is for the site's admins." }];
    case "forbidden":
    case "cannot_delete_admin":
    case "email_unverified":
      return [403, { title: "Not allowed", message }];
    case "idempotency_key_reused":
      return [
        422,
        {
          title: "Form already sent",
          message: "This form was already sent with other content. Open the page again to start afresh.",
        },
      ];
    case "idempotency_in_flight":
      return [
        409,
        { title: "Still working on it", message: "Your first submission is still being processed." },
      ];
    case "service_unavailable":
    case "document_parser_busy":
      return [
        503,
        { title: "Busy right now", message: `The site is busy. Try again in ${inWords(retryAfter ?? 5)}.` },
      ];
    case "internal_error":
    case "method_not_allowed":
      return [
        500,
        { title: "Something went wrong", message: "The page could not be shown. Try again shortly." },
      ];
    default:
      // The remaining codes are about what was sent (invalid input, a dead link, a document).
      return [400, { title: "Request not understood", message: `${message}. Go back and try again.` }];
  }
}

/** Answers `problem` as a page. */
export function problemPage(
  c: Context<WebEnv>,
  config: WebConfig,
  status: ContentfulStatusCode,
  problem: Problem,
): Promise<Response> {
  return render(c, config, (ctx) => <ProblemPage ctx={ctx} problem={problem} />, status);
}

/**
 * The web app's one onError: expected failures become a page with their
 * status (429 keeps its Retry-After and RateLimit headers), a session that
 * ended mid-way goes to the log-in page, anything else is logged and
 * answered 500 without details.
 */
export function webErrorHandler(config: WebConfig): ErrorHandler<WebEnv> {
  return (err, c) => {
    if (err instanceof StillRunning) {
      return problemPage(c, config, 409, {
        title: "Still working on it",
        message: "Your first submission of this form is still being processed. Reload in a moment.",
      });
    }
    if (isMarketplaceError(err) && err.code !== "internal_error") {
      if (err.code === "unauthenticated") return c.redirect("/login", 303);
      if (err.retryAfter !== undefined)
        c.header("Retry-After", String(Math.max(0, Math.ceil(err.retryAfter))));
      const [status, problem] = problemOf(err.code, err.message, err.retryAfter);
      return problemPage(c, config, status, problem);
    }
    if (err instanceof HTTPException && err.status === 403) {
      // hono/csrf: a form posted from another site.
      return problemPage(c, config, 403, {
        title: "Form refused",
        message: "This form was not sent from a page of this site, so nothing was changed.",
      });
    }
    config.logger.error(
      {
        method: c.req.method,
        path: c.req.path,
        err: err instanceof Error ? (err.stack ?? err.message) : String(err),
      },
      "web page failed",
    );
    return problemPage(c, config, 500, {
      title: "Something went wrong",
      message: "The page could not be shown. Try again shortly.",
    });
  };
}
