import type { Actor } from "@psm/core";
import type { RateLimitInfo } from "hono-rate-limiter";
import type { ClientIpVariables } from "./edge/client-ip.js";
import type { RequestIdVariables } from "./edge/request-id.js";
import type { CspVariables } from "./edge/security.js";
import type { RateClass } from "./rate-classes.js";

/**
 * What the host leaves in the context of every request, whatever surface answers it: the
 * request id, the client address, the caller, and what the rate limiters and the access log
 * read. Each surface composes its own `Env` from these and its own variables, and never
 * declares these again.
 */
export interface HostVariables extends RequestIdVariables, ClientIpVariables, CspVariables {
  /** The caller; anonymous when no credential was presented (or a session cookie, on the pages). */
  actor: Actor;
  /** A presented credential that failed (see Caller). */
  authError?: Error;
  /** The class of the limiter that runs now. */
  rateLimitClass: RateClass;
  /** Left by hono-rate-limiter for the limiter that runs now; read at once, before the next one. */
  rateLimit?: RateLimitInfo;
  /** The request's parsed body, when a limiter may key on it (login: `email`). */
  body: unknown;
}

/** The Hono environment of the host's own middleware. */
export interface HostEnv {
  Variables: HostVariables;
}
