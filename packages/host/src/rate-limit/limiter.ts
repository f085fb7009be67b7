import { isMarketplaceError, MarketplaceError } from "@psm/core";
import type { Context, MiddlewareHandler } from "hono";
import { rateLimiter, type Store } from "hono-rate-limiter";
import { ERROR_STATUS } from "../edge/errors.js";
import type { HostEnv } from "../env.js";
import { secondsUntil, setRateLimitHeaders } from "./headers.js";
import type { RateLimitPolicy } from "./policies.js";

/** What one limiter counts and how. */
export interface LimiterOptions {
  policy: RateLimitPolicy;
  /** This policy's own counter store (hono-rate-limiter's Store). */
  store: Store<HostEnv>;
  /** The counter key; undefined leaves the request out of this policy. */
  key: (c: Context<HostEnv>) => string | undefined;
  /**
   * Count only requests whose answer status this accepts (login: the 401 of a
   * failure; signup: an account created). Every attempt is counted first and
   * one it does not accept is taken back afterwards, so concurrent attempts
   * cannot all slip in before one is counted. An error thrown further in is
   * judged by the status it will be answered with: another limiter's 429 or a
   * 400 of validation. Default: every request counts.
   */
  counts?: (status: number) => boolean;
  /** Advertise the policy on admitted answers too (always on a 429). Default true. */
  advertise?: boolean;
  /** The 429's message, given the seconds until the next attempt is allowed. Default: the code's message. */
  refusal?: (retryAfterSeconds: number) => string;
}

/**
 * One fixed-window quota on hono-rate-limiter: its middleware does the
 * counting (increment, compare, take back non-failures) over a pluggable
 * Store; this adds the current-draft RateLimit headers and refuses by throwing
 * `rate_limited`, so the one error mapper answers 429 `{error, code}` with
 * Retry-After.
 */
export function limiter(options: LimiterOptions): MiddlewareHandler<HostEnv> {
  const { policy, counts, refusal } = options;
  const advertise = options.advertise ?? true;
  const state = (c: Context<HostEnv>) => {
    const info = c.get("rateLimit");
    return {
      remaining: info?.remaining ?? policy.limit,
      resetSeconds: secondsUntil(info?.resetTime, policy.windowMs),
    };
  };

  // The status a request's error will be answered with, for requestWasSuccessful.
  const thrown = new WeakMap<Context<HostEnv>, number>();

  const counted = rateLimiter<HostEnv>({
    windowMs: policy.windowMs,
    limit: policy.limit,
    store: options.store,
    standardHeaders: false,
    keyGenerator: (c) => `${policy.name}:${options.key(c) ?? ""}`,
    skip: (c) => options.key(c) === undefined,
    // hono-rate-limiter takes back the requests it calls "successful": here, those `counts` rejects.
    skipSuccessfulRequests: counts !== undefined,
    requestWasSuccessful: (c) => !counts?.(thrown.get(c) ?? c.res.status),
    handler: (c) => {
      const now = state(c);
      setRateLimitHeaders(c, policy, { ...now, remaining: 0 });
      throw new MarketplaceError("rate_limited", refusal?.(now.resetSeconds), {
        retryAfter: now.resetSeconds,
      });
    },
  });

  return async (c, next) => {
    // hono-rate-limiter would count any error thrown further in as a failure:
    // hold it until the limiter has judged the status it stands for.
    let held: { error: unknown } | undefined;
    await counted(c, async () => {
      if (advertise) setRateLimitHeaders(c, policy, state(c));
      try {
        await next();
      } catch (error) {
        held = { error };
        thrown.set(c, statusOf(error));
      }
    });
    if (held) throw held.error;
  };
}

/** The status the one error mapper answers `error` with. */
export function statusOf(error: unknown): number {
  return isMarketplaceError(error) ? ERROR_STATUS[error.code] : 500;
}
