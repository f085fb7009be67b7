import { MarketplaceError } from "@psm/core";
import type { Store } from "hono-rate-limiter";
import type { Logger } from "../edge/logger.js";
import type { HostEnv } from "../env.js";

/** What a limiter does when its store fails: admit the request, or answer 503. */
export type StoreFailureMode = "open" | "closed";

// One warning per interval at most: an outage must not turn every request into a log line.
const WARN_INTERVAL_MS = 60_000;

/**
 * Wraps a shared store (PostgreSQL, Redis) so that its outage never becomes a
 * 500. Reads and writes fail open (the service stays up, unthrottled, and it
 * is logged); login, signup and reset fail closed with 503 and Retry-After,
 * since an unthrottled credential endpoint is what an attacker waits for.
 */
export function guardStore(
  store: Store<HostEnv>,
  mode: StoreFailureMode,
  logger: Logger,
  policy: string,
): Store<HostEnv> {
  let lastWarn = Number.NEGATIVE_INFINITY;
  let failures = 0;
  const failed = (err: unknown) => {
    failures++;
    const now = Date.now();
    if (now - lastWarn < WARN_INTERVAL_MS) return;
    lastWarn = now;
    logger.warn({ policy, mode, failures, err: String(err) }, "rate-limit store failed");
    failures = 0;
  };
  const quietly = async (work: () => unknown) => {
    try {
      await work();
    } catch (err) {
      failed(err);
    }
  };
  return {
    prefix: store.prefix,
    localKeys: store.localKeys,
    init: (options) => store.init?.(options),
    async increment(key) {
      try {
        return await store.increment(key);
      } catch (err) {
        failed(err);
        if (mode === "open") return { totalHits: 0 };
        throw new MarketplaceError("service_unavailable", "Rate limiting is unavailable; try again shortly", {
          retryAfter: 5,
        });
      }
    },
    decrement: (key) => quietly(() => store.decrement(key)),
    resetKey: (key) => quietly(() => store.resetKey(key)),
  };
}
