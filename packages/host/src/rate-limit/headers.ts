import type { Context } from "hono";
import type { HostEnv } from "../env.js";
import type { RateLimitPolicy } from "./policies.js";

/** Whole seconds from now until `resetTime`, never negative; the window when unknown. */
export function secondsUntil(resetTime: Date | undefined, windowMs: number, now = Date.now()): number {
  if (resetTime === undefined) return Math.ceil(windowMs / 1000);
  return Math.max(0, Math.ceil((resetTime.getTime() - now) / 1000));
}

/**
 * The IETF RateLimit fields as draft-ietf-httpapi-ratelimit-headers (-08 and
 * later) writes them, as structured-field lists: `RateLimit-Policy:
 * "read";q=600;w=60` and `RateLimit: "read";r=599;t=42`. A request under
 * two policies (login: per IP and per address) appends one item per policy.
 * hono-rate-limiter 0.5.4 only writes the older draft-6/draft-7 forms.
 */
export function setRateLimitHeaders(
  c: Context<HostEnv>,
  policy: RateLimitPolicy,
  state: { remaining: number; resetSeconds: number },
): void {
  const name = JSON.stringify(policy.name);
  const window = Math.ceil(policy.windowMs / 1000);
  c.header("RateLimit-Policy", `${name};q=${policy.limit};w=${window}`, { append: true });
  c.header("RateLimit", `${name};r=${Math.max(0, state.remaining)};t=${state.resetSeconds}`, {
    append: true,
  });
}
