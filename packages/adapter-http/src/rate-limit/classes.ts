import type { RateClass } from "@psm/host";
import type { RateLimitInfo } from "hono-rate-limiter";

/** The rate-limit classes of decisions.md (the host's); each route belongs to one. */
export type RateLimitClass = RateClass;

/** What the route gate and the limiters leave in the context. */
export interface RateLimitVariables {
  /** The rate-limit class of the matched route, for the limiter. */
  rateLimitClass: RateLimitClass;
  /** Left by hono-rate-limiter for the limiter that runs now; read at once, before the next one. */
  rateLimit?: RateLimitInfo;
}
