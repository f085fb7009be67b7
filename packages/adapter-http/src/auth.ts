import type { Actor, Marketplace } from "@psm/core";
import { resolveCaller } from "@psm/host";
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
 * Resolves the request's credentials through the host's one resolver (`X-API-Key`, or
 * `Authorization: Bearer` with a JWT or a `psm_` key) on every route and leaves the caller in
 * the context. No credential: anonymous. A presented but invalid one is 401 everywhere, public
 * routes included (decisions.md): the route's gate answers it after the rate limiter has counted it.
 */
export function authenticate(marketplace: Marketplace): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const caller = await resolveCaller(marketplace, c.req.raw.headers);
    c.set("actor", caller.actor);
    if (caller.authError) c.set("authError", caller.authError);
    await next();
  };
}
