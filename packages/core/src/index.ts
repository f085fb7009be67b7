/** @psm/core: the framework-free marketplace domain, its use cases and ports. */

export type { Deps, SecurityMode, Settings } from "./deps.js";
export {
  type Actor,
  ANONYMOUS,
  type CredentialKind,
  hasScope,
  isAdmin,
  isSelfOrAdmin,
  scopesOf,
  signedInWithPassword,
  type UserActor,
} from "./domain/actor.js";
export {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  type ApiKey,
  DEFAULT_ROTATION_GRACE_SECONDS,
  KEY_PREFIX_LENGTH,
  keyRefusal,
  LAST_USED_INTERVAL_MS,
  MAX_KEY_LIFETIME_MS,
  MAX_ROTATION_GRACE_SECONDS,
  shouldTouchLastUsed,
} from "./domain/api-key.js";
export {
  CATEGORIES,
  CATEGORY_VALUES,
  type Category,
  type CategoryInfo,
  isCategory,
} from "./domain/category.js";
export {
  EVENT_RETENTION_MS,
  EVENT_TYPES,
  type EventType,
  isEventType,
  MAX_EVENTS_PER_READ,
  type MarketEvent,
  type NewEvent,
  newEventId,
} from "./domain/event.js";
export {
  holdsEveryWord,
  QUERY_MAX_LENGTH,
  QUERY_MAX_WORDS,
  relevanceRank,
  searchWords,
  stemsOf,
} from "./domain/full-text.js";
export {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_MAX_BYTES_PER_CALLER,
  IDEMPOTENCY_MAX_KEYS_PER_CALLER,
  IDEMPOTENCY_TTL_MS,
  isIdempotencyKey,
} from "./domain/idempotency.js";
export { holdsLastWord, type LastWord, lastWordOf, lastWordWithin } from "./domain/last-word.js";
export {
  DEFAULT_SLOTS,
  FACET_CAP,
  JWT_TTL_SECONDS,
  maxSlots,
  PAGE,
  RESET_MAILS_PER_ADDRESS_PER_HOUR,
  RESET_TOKEN_TTL_MS,
  type SlotSettings,
} from "./domain/limits.js";
export {
  applyChanges,
  DEFAULT_CURRENCY,
  effectiveStatus,
  isSearchable,
  LISTING_STATUSES,
  type Listing,
  type ListingChanges,
  type ListingStatus,
  type ListingStatusFilter,
  PRICE_UNITS,
  type PriceUnit,
  type StoredListingStatus,
} from "./domain/listing.js";
export {
  compareSortKeys,
  LISTING_SORTS,
  type ListingSort,
  type SortKey,
  sortKeyOf,
} from "./domain/listing-sort.js";
export { MAIL_RETRY, type MailJob, type MailJobStatus, type MailKind } from "./domain/mail-job.js";
export type { Message, MessageDirection } from "./domain/message.js";
export {
  DEFAULT_NOTIFICATION_SETTINGS,
  MESSAGE_MAIL_CHOICES,
  MESSAGE_MAIL_INTERVAL_MS,
  type MessageMail,
  type NotificationSettings,
  SAVED_SEARCH_DIGEST_INTERVAL_MS,
  SAVED_SEARCH_DIGEST_REF,
  SAVED_SEARCH_MAIL_CHOICES,
  SAVED_SEARCH_MAIL_INTERVAL_MS,
  type SavedSearchMail,
  UNSUBSCRIBE_KINDS,
  type UnsubscribeKind,
} from "./domain/notification.js";
export {
  ACCESS_TOKEN_TTL_SECONDS,
  type AuthorizationCode,
  type OAuthClient,
  type OAuthGrant,
  REFRESH_TOKEN_TTL_MS,
  type RefreshToken,
  withQuery,
} from "./domain/oauth.js";
export { isOAuthError, OAuthError, type OAuthErrorCode } from "./domain/oauth-error.js";
export type { Page, PageQuery } from "./domain/page.js";
export { porterStem } from "./domain/porter-stem.js";
export {
  defaultSavedSearchName,
  listingMatchKeys,
  MAX_SAVED_SEARCHES_PER_USER,
  matchesSavedSearch,
  SAVED_SEARCH_NAME_MAX_LENGTH,
  type SavedSearch,
  savedSearchMatchKey,
} from "./domain/saved-search.js";
export { grantableScopes, isScope, SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "./domain/scopes.js";
export { foldSearchText } from "./domain/search-text.js";
export {
  ACCOUNT_TYPES,
  type AccountType,
  isDefaultDisplayName,
  normalizeEmail,
  type Profile,
  type User,
  type UserView,
  VERIFICATION_TOKEN_TTL_MS,
} from "./domain/user.js";
export { isUuid } from "./domain/uuid.js";
export {
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  type DeliveryState,
  MAX_WEBHOOKS_PER_USER,
  WEBHOOK_EVENT_TYPES,
  type Webhook,
  type WebhookDelivery,
  type WebhookSecret,
} from "./domain/webhook.js";
export { everyWordHeld } from "./domain/words-held.js";
export {
  ERROR_CODES,
  ERROR_MESSAGES,
  type ErrorCode,
  type FieldIssue,
  invalidField,
  isMarketplaceError,
  MarketplaceError,
} from "./errors.js";
export { createMarketplace, type Marketplace } from "./marketplace.js";
export type { AccessTokenClaims, AccessTokenService } from "./ports/access-token-service.js";
export type { ApiKeyRepository } from "./ports/api-key-repository.js";
export type { ClientMetadataSource, FetchedMetadata } from "./ports/client-metadata-source.js";
export type { Clock, IdGenerator, RandomSource } from "./ports/clock.js";
export type {
  DocumentInput,
  DocumentKind,
  DocumentParser,
  ExtractedField,
  ParsedDocument,
} from "./ports/document-parser.js";
export type { EventQuery, EventRepository, EventScan, EventScanResult } from "./ports/event-repository.js";
export type {
  ClaimOutcome,
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotencyStore,
  IdempotencyUsage,
} from "./ports/idempotency-store.js";
export type {
  CategoryCounts,
  FacetQuery,
  FoundListing,
  ListingFind,
  ListingFindResult,
  ListingRepository,
  ListingSearch,
  ListingSearchResult,
  SlotGuard,
} from "./ports/listing-repository.js";
export type { MailQueueRepository, ResetRequest } from "./ports/mail-queue-repository.js";
export {
  type EmailVerificationMail,
  type Mail,
  MailDeliveryError,
  type Mailer,
  type MessageReceivedMail,
  type PasswordResetMail,
  type SavedSearchMatchedMail,
  type WebhookDisabledMail,
} from "./ports/mailer.js";
export type { MessageRepository } from "./ports/message-repository.js";
export type { NotificationRepository } from "./ports/notification-repository.js";
export type {
  CodeOutcome,
  OAuthClientRepository,
  OAuthGrantRepository,
  RefreshOutcome,
} from "./ports/oauth-repository.js";
export type { PasswordHasher, VerifyPurpose } from "./ports/password-hasher.js";
export type { Repositories, Storage, UnitOfWork } from "./ports/repositories.js";
export type {
  ResetToken,
  ResetTokenRepository,
  VerificationToken,
  VerificationTokenRepository,
} from "./ports/reset-token-repository.js";
export {
  type MailedCursors,
  type SavedSearchMatch,
  type SavedSearchRepository,
  UNMAILED_SCAN_EVENTS,
  type UnmailedMatches,
} from "./ports/saved-search-repository.js";
export type { Session, SessionRepository } from "./ports/session-repository.js";
export type { TokenClaims, TokenService } from "./ports/token-service.js";
export type { UrlSigner } from "./ports/url-signer.js";
export type { UserRepository } from "./ports/user-repository.js";
export type {
  DeliveryResult,
  WebhookDeliveryRepository,
  WebhookRepository,
} from "./ports/webhook-repository.js";
export type {
  DeliveryOutcome,
  OutgoingDelivery,
  UrlVerdict,
  WebhookTransport,
} from "./ports/webhook-transport.js";
export * from "./schemas/index.js";
export { constantTimeEqual, sha256Hex } from "./support/crypto.js";
export { decodeCursor, encodeCursor } from "./support/cursor.js";
export { createExclusiveGate, type ExclusiveGate, sharedThrough } from "./support/exclusive-gate.js";
export { createHmacUrlSigner } from "./support/hmac-url-signer.js";
export { createJwtAccessTokenService } from "./support/jwt-access-tokens.js";
export { createJwtTokenService } from "./support/jwt-token-service.js";
export { type Rounds, type RoundsOptions, startRounds } from "./support/rounds.js";
export { systemClock, webCryptoRandom } from "./support/runtime.js";
export {
  type SavedSearchMatcherOptions,
  type SavedSearchMatcherOwner,
  startSavedSearchMatcher,
} from "./support/saved-search-matcher.js";
export { createUuidV7Generator, uuidV7Time } from "./support/uuid-v7.js";
export { inputIssues, MAX_ISSUES } from "./support/validate.js";
// Result and command types that live beside their use case.
export type { EnsureAdminInput, EnsuredAdmin } from "./use-cases/admin/ensure-admin.js";
export type { CreatedApiKey } from "./use-cases/api-keys/create-api-key.js";
export type { Credentials } from "./use-cases/auth/authenticate.js";
export type { LogInResult } from "./use-cases/auth/log-in.js";
export {
  type IdempotentOutcome,
  type IdempotentRequest,
  type IdempotentWork,
  idempotencyId,
} from "./use-cases/idempotency/run-idempotent.js";
export type { ListingSearchPage } from "./use-cases/listings/search-listings.js";
export type { UpdateListingInput } from "./use-cases/listings/update-listing.js";
export type { DispatchOptions, DispatchReport } from "./use-cases/mail/dispatch-mail.js";
export type { SweepReport } from "./use-cases/maintenance/sweep-expired.js";
export type { MessagePage } from "./use-cases/messages/list-messages.js";
export type { AuthorizationParams, PendingAuthorization } from "./use-cases/oauth/authorize.js";
export type { ResolvedClient } from "./use-cases/oauth/clients.js";
export type { CodeExchange, RefreshRequest, TokenSet } from "./use-cases/oauth/tokens.js";
export type { ListingLimit } from "./use-cases/profiles/listing-limit.js";
export type { MatchOptions, MatchReport } from "./use-cases/saved-searches/match-saved-searches.js";
export { type OpenedSession, SESSION_TTL_MS } from "./use-cases/sessions/sessions.js";
export type { CreatedWebhook } from "./use-cases/webhooks/manage-webhooks.js";
export type { RelayOptions, RelayReport } from "./use-cases/webhooks/relay-webhooks.js";
