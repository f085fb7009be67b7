import type { Actor } from "@psm/core";
import type { RateClass } from "./rate-classes.js";

/**
 * What the host leaves in the context of every request, whatever surface answers it: the
 * variables the rate limiters and the access log read. Each surface composes its own `Env`
 * from these and its own variables, and never declares these again.
 */
export interface HostVariables {
  /** The caller; anonymous when no credential was presented (or a session cookie, on the pages). */
  actor: Actor;
  /** A presented credential that failed (see Caller). */
  authError?: Error;
  /** The client address as the host resolved it under TRUST_PROXY (what per-IP limits count). */
  clientIp: string;
  /** The class of the limiter that runs now. */
  rateLimitClass: RateClass;
  /** The request's parsed body, when a limiter may key on it (login: `email`). */
  body: unknown;
}

/** The Hono environment of the host's own middleware. */
export interface HostEnv {
  Variables: HostVariables;
}
