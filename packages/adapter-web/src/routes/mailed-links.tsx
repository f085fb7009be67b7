import { inputIssues, isMarketplaceError, PASSWORD_MIN_LENGTH, updatePasswordSchema } from "@psm/core";
import { createErrorHandler, type Logger, strictPairs } from "@psm/host";
import { type Context, type ErrorHandler, Hono, type MiddlewareHandler } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { RateLimitClass, WebEnv } from "../env.js";
import { type FieldErrors, type FormFields, fieldErrorsOf, issueErrors, readAnyForm } from "../forms.js";
import { limited } from "../guard.js";
import {
  describeResetPage,
  describeResetSubmit,
  describeUnsubscribePage,
  describeUnsubscribeSubmit,
  describeVerifyPage,
  describeVerifySubmit,
} from "../mailed-links-openapi.js";
import type { WebConfig, WebLogger } from "../options.js";
import { type LinkOutcome, LinkOutcomePage } from "../pages/link-outcome.js";
import { ResetPasswordPage } from "../pages/reset-password.js";
import { UNSUBSCRIBE_SUBJECTS, UnsubscribePage } from "../pages/unsubscribe.js";
import { VerifyEmailPage } from "../pages/verify-email.js";
import { type PageContext, render } from "../render.js";

const RESET_FIELDS = { newPassword: { field: "new_password", label: "New password" } };
const MISMATCH = "The two passwords do not match.";
/** Core's refusal of the new password, in a person's words when the cause is plain. */
const passwordErrors = (errors: FieldErrors, newPassword: string): FieldErrors =>
  errors.new_password !== undefined && newPassword.length < PASSWORD_MIN_LENGTH
    ? {
        ...errors,
        new_password: `New password is too short: use at least ${PASSWORD_MIN_LENGTH} characters.`,
      }
    : errors;

const toHome = { href: "/", label: "Go to the marketplace" };
const toNewLink = { href: "/forgot-password", label: "Request a new link" };

const RESET_EXPIRED: LinkOutcome = {
  title: "Link expired",
  message:
    "This password-reset link has expired or has already been used. Request a new one from the sign-in page.",
  tone: "error",
  next: toNewLink,
};
const RESET_INCOMPLETE: LinkOutcome = {
  title: "Incomplete link",
  message: "This link has no reset token. Open the link from the email again, or request a new one.",
  tone: "error",
  next: toNewLink,
};
const PASSWORD_CHANGED: LinkOutcome = {
  title: "Password changed",
  message: "Your password has been changed. You can now sign in with your new password.",
  tone: "ok",
  next: { href: "/login", label: "Log in" },
};
const VERIFY_DEAD: LinkOutcome = {
  title: "Link expired",
  message:
    "This verification link has expired or has already been used. Nothing was changed: you can ignore it.",
  tone: "error",
  next: toHome,
};
const VERIFY_INCOMPLETE: LinkOutcome = {
  title: "Incomplete link",
  message: "This link has no verification token. Open the link from the email again.",
  tone: "error",
  next: toHome,
};
const UNSUBSCRIBE_DEAD: LinkOutcome = {
  title: "Link not valid",
  message:
    "This unsubscribe link is incomplete or not valid. Open it from the mail again, or change your notification settings in your account.",
  tone: "error",
  next: { href: "/account/notifications", label: "Notification settings" },
};
const ADDRESS_CONFIRMED: LinkOutcome = {
  title: "Address confirmed",
  message: "Your email address is confirmed. You can close this page.",
  tone: "ok",
  next: toHome,
};

/**
 * The pages behind the links core mails: `/reset-password` and `/verify-email`. Mail scanners
 * fetch links before people click, so each GET only shows a form (and says up front when the
 * link is dead); the token is spent only by the form's POST, which runs the use case. The token
 * is the whole proof, so these forms carry no per-visitor token and no origin check, and none is
 * ever logged (the access log drops the query; these pages log nothing).
 */
export function mailedLinkRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();
  const page = (c: Context<WebEnv>, view: (ctx: PageContext) => JSX.Element, status: 200 | 400) =>
    linkPage(c, config, view, status);
  const outcome = (c: Context<WebEnv>, shown: LinkOutcome, status: 200 | 400) =>
    page(c, (ctx) => <LinkOutcomePage ctx={ctx} outcome={shown} />, status);
  const resetForm = (c: Context<WebEnv>, token: string, errors: FieldErrors, status: 200 | 400) =>
    page(c, (ctx) => <ResetPasswordPage ctx={ctx} view={{ token, errors }} />, status);
  /** The POSTed form, or the 400 page a body no browser sends gets. */
  const formOf = async (c: Context<WebEnv>): Promise<FormFields | Response> => {
    try {
      return await readAnyForm(c, config.maxFormBytes);
    } catch (error) {
      if (!isMarketplaceError(error, "invalid_input")) throw error;
      const message = `The form could not be read: ${error.message}.`;
      return outcome(c, { title: "Form unreadable", message, tone: "error", next: toHome }, 400);
    }
  };

  app.get("/reset-password", describeResetPage, linkGate(config, "read"), async (c) => {
    const token = c.req.query("token") ?? "";
    if (token === "") return outcome(c, RESET_INCOMPLETE, 400);
    if (!(await m.auth.checkResetToken({ token }))) return outcome(c, RESET_EXPIRED, 400);
    return resetForm(c, token, {}, 200);
  });

  app.post("/reset-password", describeResetSubmit, linkGate(config, "write"), async (c) => {
    const form = await formOf(c);
    if (form instanceof Response) return form;
    const token = form.token ?? "";
    const newPassword = form.new_password ?? "";
    if (token === "") return outcome(c, RESET_INCOMPLETE, 400);
    // A typo is caught before core, which never sees the confirmation, so it never spends the
    // single-use token; core still says what else is wrong, to show it all at once.
    if (newPassword !== (form.confirm_password ?? "")) {
      const errors = passwordErrors(
        issueErrors(inputIssues(updatePasswordSchema, { token, newPassword }), RESET_FIELDS),
        newPassword,
      );
      if (errors.new_password === undefined) errors.confirm_password = MISMATCH;
      return resetForm(c, token, errors, 400);
    }
    try {
      await m.auth.updatePassword({ token, newPassword });
    } catch (error) {
      // A token core refuses as malformed is, to a person, the same dead link.
      const tokenRefused =
        isMarketplaceError(error, "invalid_input") && error.issues.some((issue) => issue.field === "token");
      if (tokenRefused || isMarketplaceError(error, "reset_token_invalid")) {
        return outcome(c, RESET_EXPIRED, 400);
      }
      const problem = fieldErrorsOf(error, RESET_FIELDS);
      if (!problem) throw error;
      return resetForm(c, token, passwordErrors(problem, newPassword), 400);
    }
    return outcome(c, PASSWORD_CHANGED, 200);
  });

  app.get("/verify-email", describeVerifyPage, linkGate(config, "read"), async (c) => {
    const token = c.req.query("token") ?? "";
    if (token === "") return outcome(c, VERIFY_INCOMPLETE, 400);
    if (!(await m.auth.checkVerificationToken({ token }))) return outcome(c, VERIFY_DEAD, 400);
    return page(c, (ctx) => <VerifyEmailPage ctx={ctx} token={token} />, 200);
  });

  app.post("/verify-email", describeVerifySubmit, linkGate(config, "write"), async (c) => {
    const form = await formOf(c);
    if (form instanceof Response) return form;
    const token = form.token ?? "";
    if (token === "") return outcome(c, VERIFY_INCOMPLETE, 400);
    try {
      await m.auth.verifyEmail({ token });
    } catch (error) {
      // A token core refuses as malformed is, to a person, the same dead link.
      const dead = isMarketplaceError(error, "verification_token_invalid");
      if (dead || isMarketplaceError(error, "invalid_input")) return outcome(c, VERIFY_DEAD, 400);
      throw error;
    }
    return outcome(c, ADDRESS_CONFIRMED, 200);
  });

  app.get("/unsubscribe", describeUnsubscribePage, linkGate(config, "read"), async (c) => {
    const token = c.req.query("token") ?? "";
    try {
      const { kind } = await m.notifications.checkUnsubscribe({ token });
      return page(c, (ctx) => <UnsubscribePage ctx={ctx} token={token} kind={kind} />, 200);
    } catch (error) {
      if (
        isMarketplaceError(error, "unsubscribe_link_invalid") ||
        isMarketplaceError(error, "invalid_input")
      ) {
        return outcome(c, UNSUBSCRIBE_DEAD, 400);
      }
      throw error;
    }
  });

  // RFC 8058: a mail client POSTs "List-Unsubscribe=One-Click" to the link itself, token in the
  // query, with no cookie and no page; the page's button posts the token in its form.
  app.post("/unsubscribe", describeUnsubscribeSubmit, linkGate(config, "write"), async (c) => {
    const form = await formOf(c);
    if (form instanceof Response) return form;
    const token = c.req.query("token") ?? form.token ?? "";
    try {
      const { kind } = await m.notifications.unsubscribe({ token });
      const message = `You will no longer get ${UNSUBSCRIBE_SUBJECTS[kind]}. You can turn them on again in your account's notification settings.`;
      return outcome(c, { title: "Unsubscribed", message, tone: "ok", next: toHome }, 200);
    } catch (error) {
      if (
        isMarketplaceError(error, "unsubscribe_link_invalid") ||
        isMarketplaceError(error, "invalid_input")
      ) {
        return outcome(c, UNSUBSCRIBE_DEAD, 400);
      }
      throw error;
    }
  });

  // What no page here handles (a body too large, too many requests, a bad credential, a fault)
  // is answered by the host's own mapping, `{error, code}`, as these links always answered it:
  // their callers include scripts and link checkers, not only the pages' visitors.
  app.onError(hostErrors(config.logger));
  return app;
}

/**
 * The gate of these routes, as of every route the host serves: the limiter of `rate` counts the
 * request, then a presented credential that is invalid is 401 (decisions.md), and every query
 * parameter must be UTF-8 core would store (a broken escape is 400, never a mangled token).
 */
function linkGate(config: WebConfig, rate: RateLimitClass): MiddlewareHandler<WebEnv> {
  return (c, next) =>
    limited(c, config, rate, async () => {
      const authError = c.get("authError");
      if (authError) throw authError;
      const url = c.req.url;
      const query = url.indexOf("?");
      if (query >= 0) strictPairs(url.slice(query + 1));
      await next();
    });
}

/** Renders a page of these links: the page headers, but no Referer leaves a URL that holds a token. */
async function linkPage(
  c: Context<WebEnv>,
  config: WebConfig,
  view: (ctx: PageContext) => JSX.Element,
  status: 200 | 400,
): Promise<Response> {
  const res = await render(c, config, view, status);
  // render's same-origin policy serves forms that prove their Origin; these forms prove nothing by it.
  res.headers.set("Referrer-Policy", "no-referrer");
  return res;
}

/** The host's error mapping, logging through the pages' logger. */
function hostErrors(logger: WebLogger): ErrorHandler<WebEnv> {
  const hostLogger: Logger = {
    info() {},
    warn: (obj, msg) => logger.error(obj, msg),
    error: (obj, msg) => logger.error(obj, msg),
  };
  // It reads only the host's variables, which every page's context carries (WebVariables extends them).
  return createErrorHandler(hostLogger) as unknown as ErrorHandler<WebEnv>;
}
