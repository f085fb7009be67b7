/**
 * @psm/operations: the one registry of the marketplace's operations, free of transport. Each
 * operation is described once (name, input in the wire's words, auth, rate class, answer schema,
 * handler over core's use cases); the JSON API mounts them as routes, the MCP server lists them as
 * tools, and both derive their documents (OpenAPI, capabilities, tool schemas) from them.
 */
export {
  API_VERSION,
  buildCapabilities,
  type CapabilitiesDocument,
  type Capability,
  capabilityList,
  categoryList,
} from "./capabilities.js";
export { type OperationsConfig, operationsConfig } from "./config.js";
export {
  decodeKeptAnswer,
  encodeKeptAnswer,
  formerOperationOf,
  IDEMPOTENCY_POLICY,
  type KeptAnswer,
  type KeptRun,
  keptRun,
  REDACTED_SECRET,
  takesIdempotencyKey,
} from "./kept-answers.js";
export {
  type AuthRequirement,
  authIn,
  type Command,
  defineOperation,
  type HttpMethod,
  legacyPublic,
  type Operation,
  type OperationContext,
  type OperationName,
  privatePaths,
  requireOperationScope,
  scopeAllows,
} from "./operation.js";
export { apiOperations } from "./operations/index.js";
export {
  type CommandSchema,
  commandOf,
  inWireWords,
  snakeCase,
  type WireMapping,
  wireNames,
  wireSchema,
} from "./wire.js";
export { ErrorSchema, HealthSchema, ParsedDocumentSchema, ReadySchema } from "./wire-schemas.js";
