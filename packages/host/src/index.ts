/**
 * @psm/host: what every surface of the marketplace (the JSON API, the pages, MCP) shares at the
 * edge, so that a protection belongs to a class of operation and never to one route: the one body
 * reader and its parsers, the upload gate, the credential resolver, the rate classes and their
 * runner, and safe redirects.
 */
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
export { type Caller, credentialsOf, presentsCredentials, resolveCaller } from "./credentials.js";
export type { HostEnv, HostVariables } from "./env.js";
export { type RateClass, type RateLimitHooks, runLimited } from "./rate-classes.js";
export { safeRedirectPath } from "./redirect.js";
export { createSlots, type Slots } from "./uploads/slots.js";
export {
  createUploadGate,
  envelopeBytes,
  type UploadBounds,
  type UploadEnvelope,
  type UploadGate,
} from "./uploads/upload-gate.js";
