/** The limiters behind the rate classes: decisions.md quotas on hono-rate-limiter counters (memory, Redis, PostgreSQL). */

export type { RedisClient } from "hono-rate-limiter";
export { setRateLimitHeaders } from "./headers.js";
export {
  createRateLimitHooks,
  memoryStores,
  type RateLimitOptions,
  type RateLimitStoreFactory,
  redisStores,
} from "./hooks.js";
export { addressKey } from "./keys.js";
export { DEFAULT_RATE_LIMIT_POLICIES, type RateLimitPolicies, type RateLimitPolicy } from "./policies.js";
export { guardStore, type StoreFailureMode } from "./store-guard.js";
