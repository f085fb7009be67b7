/** @psm/adapter-http: the marketplace's HTTP API on Hono. */
export { type CreateHttpAppOptions, createHttpApp } from "./app.js";
export { credentialsOf } from "./auth.js";
export {
  nodeSocketAddress,
  parseTrustedProxies,
  resolveClientIp,
  type SocketAddress,
  UNKNOWN_CLIENT,
} from "./client-ip.js";
export type { HttpConfig, Logger, RateLimitClass, RateLimitHooks, ResolvedConfig } from "./config.js";
export type { AppEnv } from "./env.js";
export { describeError, ERROR_STATUS, type ErrorBody, type ErrorDescription } from "./errors.js";
export type { OpenApiDocument } from "./openapi.js";
export {
  createRateLimitHooks,
  DEFAULT_RATE_LIMIT_POLICIES,
  memoryStores,
  type RateLimitOptions,
  type RateLimitPolicies,
  type RateLimitPolicy,
  type RateLimitStoreFactory,
  type RedisClient,
  redisStores,
} from "./rate-limit/index.js";
