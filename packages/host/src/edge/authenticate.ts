import type { Marketplace } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import { resolveCaller, resourceOf } from "../credentials.js";
import type { HostEnv } from "../env.js";

/**
 * Resolves the request's credentials through the one resolver (`X-API-Key`, or `Authorization:
 * Bearer` with a JWT or a `psm_` key) for every surface and leaves the caller in the context. No
 * credential: anonymous. A presented but invalid one is 401 everywhere, public routes included
 * (decisions.md): each surface answers `authError` after its rate limiter has counted it. A page
 * surface may replace an anonymous actor with its session's user.
 */
export function authenticate(marketplace: Marketplace): MiddlewareHandler<HostEnv> {
  return async (c, next) => {
    const resource = resourceOf(marketplace.settings.publicUrl, c.req.path);
    const caller = await resolveCaller(marketplace, c.req.raw.headers, resource);
    c.set("actor", caller.actor);
    if (caller.authError) c.set("authError", caller.authError);
    await next();
  };
}
