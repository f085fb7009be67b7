/** @psm/adapter-http: the marketplace's HTTP API on Hono. */

// The edge's pieces the API used to own, now the host's: re-exported for embedders of 1.2.
export {
  createRateLimitHooks,
  credentialsOf,
  DEFAULT_RATE_LIMIT_POLICIES,
  describeError,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorDescription,
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
} from "@psm/host";
export { type CreateHttpAppOptions, createApiSurface, createHttpApp, type Surface } from "./app.js";
export type { HttpConfig, Logger, RateLimitClass, RateLimitHooks, ResolvedConfig } from "./config.js";
export type { AppEnv } from "./env.js";
export { type ListingRevision, watchListingWrites } from "./listing-revision.js";
export type { OpenApiDocument } from "./openapi.js";
export { apiOperations } from "./operations/index.js";
export {
  API_VERSION,
  buildCapabilities,
  type CapabilitiesDocument,
  type Capability,
} from "./registry/capabilities.js";
export {
  type AuthRequirement,
  authIn,
  type HttpMethod,
  type Operation,
  type OperationContext,
  type OperationName,
} from "./registry/operation.js";
export {
  type ApiCatalog,
  type ApiTool,
  apiCatalog,
  apiTools,
  type ToolRateClass,
  type ToolResult,
} from "./registry/tools.js";
export { commandOf, inWireWords, snakeCase, type WireMapping, wireNames } from "./registry/wire.js";
export { type Uploads, uploadGateOf } from "./uploads.js";
