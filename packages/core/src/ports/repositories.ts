import type { ApiKeyRepository } from "./api-key-repository.js";
import type { ListingRepository } from "./listing-repository.js";
import type { MailQueueRepository } from "./mail-queue-repository.js";
import type { MessageRepository } from "./message-repository.js";
import type { ResetTokenRepository, VerificationTokenRepository } from "./reset-token-repository.js";
import type { UserRepository } from "./user-repository.js";

/** Everything a storage adapter delivers, as one object. */
export interface Repositories {
  listings: ListingRepository;
  users: UserRepository;
  apiKeys: ApiKeyRepository;
  messages: MessageRepository;
  resetTokens: ResetTokenRepository;
  verificationTokens: VerificationTokenRepository;
  mailQueue: MailQueueRepository;
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
