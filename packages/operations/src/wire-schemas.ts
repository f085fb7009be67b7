/**
 * Valibot schemas of the response bodies, for the OpenAPI document only: core
 * owns the request schemas; these describe what presenters.ts writes. Every
 * property carries a description (what it means, units, format, when null),
 * which /openapi.json and the clients generated from it show. One module a
 * part: the building blocks, the entities, the capabilities document and the
 * answers; this one names them all.
 */
export {
  AdminCheckAnswer,
  CreatedApiKeyAnswer,
  CreatedListingAnswer,
  EventPage,
  HealthSchema,
  ListingAnswer,
  ListingPage,
  LogInAnswer,
  MeAnswer,
  MessagePage,
  ProfileAnswer,
  pageOf,
  ReadySchema,
  SentMessageAnswer,
  SuccessSchema,
  UserAnswer,
} from "./wire-answers.js";
export { CapabilitiesSchema } from "./wire-capabilities.js";
export {
  ApiKeySchema,
  CreatedApiKeySchema,
  EventSchema,
  ListingLimitSchema,
  ListingSchema,
  MessageSchema,
  ParsedDocumentSchema,
  ProfileSchema,
  UserSchema,
} from "./wire-entities.js";
export { COUNT, ErrorSchema, NEXT_CURSOR, referenced, SEARCH_NEXT_CURSOR, SUCCESS } from "./wire-fields.js";
