import { MarketplaceError } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.js";

/**
 * At most `max` requests through at once in this process; the next is
 * answered 503 `service_unavailable` with Retry-After at once, before its body
 * is read. Uploads are buffered whole (up to 10 MiB) and parsed, so this bounds
 * the memory and CPU a burst of uploads can take, rate limits or not.
 */
export function concurrencyCap(max: number, retryAfterSeconds = 5): MiddlewareHandler<AppEnv> {
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError("concurrencyCap: max must be a positive integer");
  let inFlight = 0;
  return async (_c, next) => {
    if (inFlight >= max) {
      throw new MarketplaceError("service_unavailable", "Too many uploads in progress; try again shortly", {
        retryAfter: retryAfterSeconds,
      });
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
