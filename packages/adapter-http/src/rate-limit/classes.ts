import type { RateClass } from "@psm/host";
import type { RateLimitInfo } from "hono-rate-limiter";

/** The rate-limit classes of decisions.md (the host's); each route belongs to one. */
export type RateLimitClass = RateClass;

/** What the limiters leave in the context (the class of the one that runs now is the host's `rateLimitClass`). */
export interface RateLimitVariables {
  /** Left by hono-rate-limiter for the limiter that runs now; read at once, before the next one. */
  rateLimit?: RateLimitInfo;
}
