import type { Actor, Credentials, Marketplace } from "@psm/core";
import { ANONYMOUS, isMarketplaceError, MarketplaceError } from "@psm/core";
import type { MiddlewareHandler } from "hono";

/** What authenticate() leaves in the context. */
export interface AuthVariables {
  /** The caller; anonymous when no credential was presented. */
  actor: Actor;
  /**
   * A presented credential that failed. The route answers it with 401 after
   * its rate limiter has counted the request, so guessing keys or tokens
   * is rate limited like any other request.
   */
  authError?: Error;
}

/**
 * Resolves `X-API-Key` or `Authorization: Bearer` through core on every route
 * and leaves the Actor in the context. No credential: anonymous. A presented
 * but invalid one is 401 everywhere, public routes included (decisions.md):
 * the route's `operation` answers it after the rate limiter has counted it.
 */
export function authenticate(marketplace: Marketplace): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    try {
      const credentials = credentialsOf(c.req.raw.headers);
      // No credential is anonymous (core's rule too): most reads skip the call.
      const anonymous = credentials.apiKey === undefined && credentials.bearer === undefined;
      c.set("actor", anonymous ? ANONYMOUS : await marketplace.auth.authenticate(credentials));
    } catch (error) {
      if (!isMarketplaceError(error, "unauthenticated")) throw error;
      c.set("actor", ANONYMOUS);
      c.set("authError", error);
    }
    await next();
  };
}

/** The credentials a request presents; an empty header counts as absent. */
export function credentialsOf(headers: Headers): Credentials {
  const credentials: Credentials = {};
  const apiKey = headers.get("x-api-key")?.trim();
  if (apiKey) credentials.apiKey = apiKey;
  const authorization = headers.get("authorization")?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    // Basic or a malformed Bearer is a presented credential that cannot be valid.
    if (!match?.[1]) throw new MarketplaceError("unauthenticated", "Invalid authorization header");
    credentials.bearer = match[1];
  }
  return credentials;
}
