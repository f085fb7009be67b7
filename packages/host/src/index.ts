/**
 * @psm/host: what every surface of the marketplace (the JSON API, the pages, MCP) shares at the
 * edge, so that a protection belongs to a class of operation and never to one route: the one body
 * reader and its parsers, the upload gate, the credential resolver, the rate classes and their
 * runner, and safe redirects.
 */
export {
  type AnswerCache,
  type AnswerCacheOptions,
  type AnswerCacheOutcome,
  createAnswerCache,
  type EncodedAnswer,
  expiryOf,
  pathAndQuery,
  type ReadAnswer,
  type ReadOptions,
} from "./answer-cache.js";
export { type ByteBudget, createByteBudget } from "./body/byte-budget.js";
export { decodeStrict, MAX_FORM_FIELDS, mediaType, type Pair, parseForm, strictPairs } from "./body/form.js";
export { MAX_JSON_DEPTH, nestsDeeperThan, parseJson, parseJsonObject, topLevelCount } from "./body/json.js";
export {
  findFilePart,
  MAX_PARTS,
  type MultipartForm,
  multipartBoundary,
  readMultipart,
  type UploadedFile,
} from "./body/multipart.js";
export { type Body, type BodyLimits, readBody, SlowBodyError } from "./body/read-body.js";
export { assertStorableUrl } from "./body/strict-url.js";
export { createHost, type HostOptions, type Surface } from "./create-host.js";
export {
  type Caller,
  credentialsOf,
  presentsCredentials,
  resolveCaller,
  resourceOf,
} from "./credentials.js";
export {
  checkFormToken,
  FORM_TOKEN_FIELD,
  isFormBinding,
  issueFormToken,
  newFormBinding,
  originCheck,
} from "./csrf.js";
export { accessLog } from "./edge/access-log.js";
export { authenticate } from "./edge/authenticate.js";
export {
  type ClientIpVariables,
  clientIp,
  nodeSocketAddress,
  normalizeAddress,
  parseTrustedProxies,
  resolveClientIp,
  type SocketAddress,
  UNKNOWN_CLIENT,
} from "./edge/client-ip.js";
export {
  createErrorHandler,
  createNotFoundHandler,
  describeError,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorDescription,
  errorResponse,
  isClientAbort,
} from "./edge/errors.js";
export type { Logger } from "./edge/logger.js";
export { methodIndex } from "./edge/method-not-allowed.js";
export {
  operationOf,
  type RequestEndHook,
  type RequestLabels,
  type RequestTracer,
  requestMetrics,
  requestTracing,
  UNMATCHED_OPERATION,
} from "./edge/metrics.js";
export { isPrivate, type Privacy, type PrivatePath, privateAnswers } from "./edge/private-answers.js";
export { type RequestIdVariables, requestId } from "./edge/request-id.js";
export {
  type CspVariables,
  contentSecurityPolicy,
  corsPolicy,
  EXPOSED_HEADERS,
  securityHeaders,
} from "./edge/security.js";
export type { HostEnv, HostVariables } from "./env.js";
export { type ListingRevision, watchListingWrites } from "./listing-revision.js";
export { type RateClass, type RateLimitHooks, runLimited } from "./rate-classes.js";
export {
  addressKey,
  createRateLimitHooks,
  DEFAULT_RATE_LIMIT_POLICIES,
  guardStore,
  memoryStores,
  type RateLimitOptions,
  type RateLimitPolicies,
  type RateLimitPolicy,
  type RateLimitStoreFactory,
  type RedisClient,
  redisStores,
  type StoreFailureMode,
  setRateLimitHeaders,
} from "./rate-limit/index.js";
export { safeRedirectPath } from "./redirect.js";
export { createSlots, type Slots } from "./uploads/slots.js";
export {
  createUploadGate,
  envelopeBytes,
  type UploadBounds,
  type UploadEnvelope,
  type UploadGate,
} from "./uploads/upload-gate.js";
