import type { AuthVariables } from "./auth.js";
import type { ClientIpVariables } from "./client-ip.js";
import type { RateLimitVariables } from "./rate-limit/classes.js";
import type { RequestIdVariables } from "./request-id.js";
import type { CspVariables } from "./security.js";

/** What the route gate leaves in the context. */
export interface BodyVariables {
  /** The parsed JSON body, as the caller sent it, once the route gate has read it. */
  body: unknown;
  /** The body's bytes as sent, when the route gate read a JSON body (an Idempotency-Key's fingerprint). */
  bodyBytes: Uint8Array | undefined;
}

/**
 * The Hono environment of every route: the variables each middleware declares
 * for itself (as hono/request-id does), put together.
 */
export interface AppEnv {
  Variables: AuthVariables &
    ClientIpVariables &
    RateLimitVariables &
    RequestIdVariables &
    CspVariables &
    BodyVariables;
}
