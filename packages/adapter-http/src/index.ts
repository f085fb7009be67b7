/** @psm/adapter-http: the marketplace's HTTP API on Hono. */

export type { AnswerCacheOutcome } from "@psm/host";
// The edge's pieces the API used to own, now the host's: re-exported for embedders of 1.2.
export {
  createRateLimitHooks,
  credentialsOf,
  DEFAULT_RATE_LIMIT_POLICIES,
  describeError,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorDescription,
  type ListingRevision,
  memoryStores,
  nodeSocketAddress,
  parseTrustedProxies,
  type RateLimitOptions,
  type RateLimitPolicies,
  type RateLimitPolicy,
  type RateLimitStoreFactory,
  type RedisClient,
  redisStores,
  resolveClientIp,
  type SocketAddress,
  UNKNOWN_CLIENT,
  watchListingWrites,
} from "@psm/host";
// The registry is @psm/operations' now (the MCP tool catalog is @psm/adapter-mcp's): its names
// are re-exported for embedders of 1.2.
export {
  API_VERSION,
  type AuthRequirement,
  apiOperations,
  authIn,
  buildCapabilities,
  type CapabilitiesDocument,
  type Capability,
  commandOf,
  type HttpMethod,
  inWireWords,
  type Operation,
  type OperationContext,
  type OperationName,
  snakeCase,
  type WireMapping,
  wireNames,
} from "@psm/operations";
export { type CreateHttpAppOptions, createApiSurface, createHttpApp, type Surface } from "./app.js";
export type { HttpConfig, Logger, RateLimitClass, RateLimitHooks, ResolvedConfig } from "./config.js";
export type { AppEnv } from "./env.js";
export type { OpenApiDocument } from "./openapi.js";
export { type Uploads, uploadGateOf } from "./uploads.js";
