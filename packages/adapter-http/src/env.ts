import type { Actor } from "@psm/core";
import type { RateLimitClass } from "./config.js";

/** The Hono environment of every route: what middleware leaves in the context. */
export interface AppEnv {
  Variables: {
    /** Set by the auth middleware on every request (anonymous when no credential). */
    actor: Actor;
    /** The request id echoed in X-Request-Id and the logs. */
    requestId: string;
    /** The CSP nonce of the /docs page's inline script. */
    cspNonce?: string;
    /** The parsed JSON body, as the caller sent it, once a body middleware has run. */
    body: unknown;
    /**
     * A presented credential that failed. The route answers it with 401 after
     * its rate limiter has counted the request, so guessing keys or tokens
     * is rate limited like any other request.
     */
    authError?: Error;
    /** The rate-limit class of the matched route, for the limiter. */
    rateLimitClass: RateLimitClass;
  };
}
