import type { ApiKeyRepository } from "./api-key-repository.js";
import type { EventRepository } from "./event-repository.js";
import type { IdempotencyStore } from "./idempotency-store.js";
import type { ListingRepository } from "./listing-repository.js";
import type { MailQueueRepository } from "./mail-queue-repository.js";
import type { MessageRepository } from "./message-repository.js";
import type { NotificationRepository } from "./notification-repository.js";
import type { OAuthClientRepository, OAuthGrantRepository } from "./oauth-repository.js";
import type { ResetTokenRepository, VerificationTokenRepository } from "./reset-token-repository.js";
import type { SavedSearchRepository } from "./saved-search-repository.js";
import type { SessionRepository } from "./session-repository.js";
import type { UserRepository } from "./user-repository.js";
import type { WebhookDeliveryRepository, WebhookRepository } from "./webhook-repository.js";

/** Everything a storage adapter delivers, as one object. */
export interface Repositories {
  listings: ListingRepository;
  users: UserRepository;
  apiKeys: ApiKeyRepository;
  messages: MessageRepository;
  /** The event log (its writes go with the changes they tell of). */
  events: EventRepository;
  resetTokens: ResetTokenRepository;
  verificationTokens: VerificationTokenRepository;
  mailQueue: MailQueueRepository;
  /** Notification settings, and the cursor that turns events into notification mail. */
  notifications: NotificationRepository;
  webhooks: WebhookRepository;
  /** Saved searches, their recorded matches, and the cursor that matches new listings against them. */
  savedSearches: SavedSearchRepository;
  /** Webhook deliveries and the fan-out that makes them from the event log. */
  webhookDeliveries: WebhookDeliveryRepository;
  sessions: SessionRepository;
  /** OAuth clients registered dynamically (RFC 7591). */
  oauthClients: OAuthClientRepository;
  /** OAuth grants with their authorization codes and refresh tokens. */
  oauthGrants: OAuthGrantRepository;
  idempotency: IdempotencyStore;
  /** Transactions over these repositories (idempotent writes commit with their key's answer). */
  unitOfWork: UnitOfWork;
}

/**
 * Runs several repository calls as one transaction. `work` gets repositories
 * bound to it: what they write commits when `work` resolves and is rolled back
 * when it throws (the throw is passed on). While a unit runs, other callers
 * never see its uncommitted writes. Units may run one at a time (SQLite) or
 * concurrently (PostgreSQL); either way each is atomic.
 */
export interface UnitOfWork {
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}

/** A storage adapter: repositories plus its life cycle. */
export interface Storage {
  repositories: Repositories;
  /** Applies migrations; idempotent; safe when several processes start at once. */
  migrate(): Promise<void>;
  /** Whether the database answers (readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
