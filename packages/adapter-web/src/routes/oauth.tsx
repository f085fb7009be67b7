import {
  type AuthorizationParams,
  grantableScopes,
  isOAuthError,
  MarketplaceError,
  withQuery,
} from "@psm/core";
import { type Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { WebEnv } from "../env.js";
import { problemPage } from "../errors.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import { keyDraftOf } from "../key-form.js";
import type { WebConfig } from "../options.js";
import { ConnectedAppsPage } from "../pages/connected-apps.js";
import { ConsentPage } from "../pages/consent.js";
import { PAGE_CSP, render } from "../render.js";

/** The authorization endpoint (RFC 6749 section 3.1): the consent page. adapter-oauth's metadata names it. */
export const OAUTH_AUTHORIZE_PATH = "/oauth/authorize";

/** The request's parameters by their RFC names; `resource` may repeat (RFC 8707). */
const PARAMS = {
  responseType: "response_type",
  clientId: "client_id",
  redirectUri: "redirect_uri",
  scope: "scope",
  state: "state",
  codeChallenge: "code_challenge",
  codeChallengeMethod: "code_challenge_method",
} as const;

function paramsOf(get: (name: string) => string | undefined, resources: string[]): AuthorizationParams {
  const params: AuthorizationParams = { resources };
  for (const [key, name] of Object.entries(PARAMS)) params[key as keyof typeof PARAMS] = get(name);
  return params;
}

/** The parameters as hidden fields of the answer; the resources one per line (a form keeps one value a name). */
function hiddenOf(params: AuthorizationParams): Record<string, string> {
  const hidden: Record<string, string> = {};
  for (const [key, name] of Object.entries(PARAMS)) {
    const value = params[key as keyof typeof PARAMS];
    if (value !== undefined) hidden[name] = value;
  }
  if (params.resources?.length) hidden.resources = params.resources.join("\n");
  return hidden;
}

/**
 * Where the consent form may send the browser on: its own site and the client's redirect target
 * (CSP form-action also governs the redirect that answers the form, in Chromium).
 */
function consentCsp(redirectUri: string): string {
  const url = new URL(redirectUri);
  const target = url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
  return PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${target}`);
}

/**
 * `/oauth/authorize` (the consent page: a signed-in person approves or denies a client's request)
 * and `/account/apps` (the applications connected, each disconnected with one button).
 */
export function oauthRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const issuer = m.settings.publicUrl;
  const app = new Hono<WebEnv>();

  /** A refused request: back to the client when its redirect URI is known good, else a page. */
  const refuse = (c: Context<WebEnv>, error: unknown, state: string | undefined) => {
    if (!isOAuthError(error)) throw error;
    if (error.redirectUri !== undefined) {
      const params = { error: error.code, error_description: error.message, state, iss: issuer };
      return c.redirect(withQuery(error.redirectUri, params), 303);
    }
    return problemPage(c, config, 400, {
      title: "This application's request is not valid",
      message: error.message,
    });
  };

  app.get(OAUTH_AUTHORIZE_PATH, readLimit(config), async (c) => {
    const query = new URL(c.req.url).searchParams;
    const params = paramsOf((name) => query.get(name) ?? undefined, query.getAll("resource"));
    let pending: Awaited<ReturnType<typeof m.oauth.checkAuthorization>>;
    try {
      pending = await m.oauth.checkAuthorization(params);
    } catch (error) {
      return refuse(c, error, params.state);
    }
    if (c.get("actor").kind !== "user") {
      return c.redirect(
        `/login?next=${encodeURIComponent(OAUTH_AUTHORIZE_PATH + new URL(c.req.url).search)}`,
        303,
      );
    }
    // What this person may give: an admin's rights are not offered to anyone else.
    const grantable = grantableScopes(userOf(c).user.isAdmin);
    pending = { ...pending, scopes: pending.scopes.filter((scope) => grantable.includes(scope)) };
    const redirect = new URL(pending.redirectUri);
    const destination = redirect.host === "" ? redirect.protocol : redirect.host;
    const view = { pending, destination, hidden: hiddenOf(params), action: OAUTH_AUTHORIZE_PATH };
    const page = await render(c, config, (ctx) => <ConsentPage ctx={ctx} view={view} />);
    page.headers.set("Content-Security-Policy", consentCsp(pending.redirectUri));
    return page;
  });

  app.post(OAUTH_AUTHORIZE_PATH, signedIn(config), formGuard(config, "write"), async (c) => {
    const form = c.get("form");
    const resources = (form.resources ?? "").split("\n").filter(Boolean);
    const params = paramsOf((name) => form[name], resources);
    try {
      const pending = await m.oauth.checkAuthorization(params);
      if (form.decision !== "approve") {
        const denied = { error: "access_denied", error_description: "The user denied the request" };
        return c.redirect(
          withQuery(pending.redirectUri, { ...denied, state: params.state, iss: issuer }),
          303,
        );
      }
      const code = await m.oauth.approve(userOf(c), pending, keyDraftOf(form).scopes);
      return c.redirect(withQuery(pending.redirectUri, { code, state: params.state, iss: issuer }), 303);
    } catch (error) {
      return refuse(c, error, params.state);
    }
  });

  app.use("/account/apps", signedIn(config));
  app.use("/account/apps/*", signedIn(config));
  app.get("/account/apps", readLimit(config), async (c) => {
    const grants = await m.oauth.listConnected(userOf(c));
    return render(c, config, (ctx) => <ConnectedAppsPage ctx={ctx} grants={grants} />);
  });
  app.post("/account/apps/:id/disconnect", formGuard(config, "write"), async (c) => {
    try {
      await m.oauth.disconnect(userOf(c), c.req.param("id"));
    } catch (error) {
      if (!(error instanceof MarketplaceError) || error.code !== "not_found") throw error;
    }
    setFlash(c, config, { tone: "ok", text: "The application is disconnected." });
    return c.redirect("/account/apps", 303);
  });
  return app;
}
