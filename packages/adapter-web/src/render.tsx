import { type Actor, DEFAULT_CURRENCY, type User } from "@psm/core";
import type { Context } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { takeFlash } from "./cookies.js";
import { formBinding, issueFormToken } from "./csrf.js";
import type { Flash, WebEnv } from "./env.js";
import type { WebConfig } from "./options.js";

/** What every page component gets: who is looking, where, the pending notice, and form tokens. */
export interface PageContext {
  actor: Actor;
  /** The signed-in user, if any. */
  user: User | undefined;
  /** The path of this page, for the navigation's current item. */
  path: string;
  /** The notice left by the last write (shown once). */
  flash: Flash | undefined;
  /** A fresh token for one form on this page. */
  formToken(): string;
  /** The marketplace's currency (CURRENCY), which every price is in. */
  currency: string;
}

/**
 * The policy of every page: nothing from elsewhere, no inline script or style
 * (the one stylesheet and script are files of this site), forms post only
 * here, and no framing.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** The context of the page being answered. */
export function pageContext(c: Context<WebEnv>, config: WebConfig): PageContext {
  // Bound at the page's first form (a new visitor's cookie is set then, before the answer is
  // built), so a page without a form, such as browsing, sets no cookie.
  let binding: string | undefined;
  const actor: Actor = c.get("actor") ?? { kind: "anonymous" };
  return {
    actor,
    user: actor.kind === "user" ? actor.user : undefined,
    path: c.req.path,
    flash: takeFlash(c, config),
    formToken: () => {
      binding ??= formBinding(c, config);
      return issueFormToken(binding);
    },
    currency: currencyOf(config),
  };
}

/** The marketplace's currency (CURRENCY), which every price is in. */
export function currencyOf(config: WebConfig): string {
  return config.marketplace.settings.currency ?? DEFAULT_CURRENCY;
}

/** Sets the headers every page carries (over the host's API defaults). */
export function pageHeaders(c: Context<WebEnv>): void {
  c.header("Content-Security-Policy", PAGE_CSP);
  // Same-origin form posts then carry their real Origin (no-referrer would send "null").
  c.header("Referrer-Policy", "same-origin");
  // Pages carry per-visitor tokens and often private data.
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
}

/** Renders a page (a doctype and the component tree) with the page headers. */
export async function render(
  c: Context<WebEnv>,
  config: WebConfig,
  view: (ctx: PageContext) => JSX.Element,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const ctx = pageContext(c, config);
  const body = `<!doctype html>${await view(ctx)}`;
  pageHeaders(c);
  return c.html(body, status);
}
