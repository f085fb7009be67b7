import type { ApiKey } from "../../domain/api-key.js";
import type { MarketEvent } from "../../domain/event.js";
import type { Listing } from "../../domain/listing.js";
import type { MailJob } from "../../domain/mail-job.js";
import type { Message } from "../../domain/message.js";
import type { NotificationSettings } from "../../domain/notification.js";
import type { AuthorizationCode, OAuthClient, OAuthGrant, RefreshToken } from "../../domain/oauth.js";
import type { PageQuery } from "../../domain/page.js";
import type { SavedSearch } from "../../domain/saved-search.js";
import type { User } from "../../domain/user.js";
import type { Webhook, WebhookDelivery } from "../../domain/webhook.js";
import { MarketplaceError } from "../../errors.js";
import type { IdempotencyRecord } from "../../ports/idempotency-store.js";
import type { ResetRequest } from "../../ports/mail-queue-repository.js";
import type { ResetToken } from "../../ports/reset-token-repository.js";
import type { SavedSearchMatch } from "../../ports/saved-search-repository.js";
import type { Session } from "../../ports/session-repository.js";

/** A stored single-use token (reset or verification) with its used flag. */
export interface StoredResetToken extends ResetToken {
  used: boolean;
}

/** A stored authorization code with its used flag. */
export interface StoredCode extends AuthorizationCode {
  used: boolean;
}

/**
 * The tables of one in-memory database. The repositories share it so that
 * deleteCascade can reach every table, as a foreign key would.
 */
export interface MemoryState {
  listings: Map<string, Listing>;
  users: Map<string, User>;
  apiKeys: Map<string, ApiKey>;
  messages: Map<string, Message>;
  resetTokens: Map<string, StoredResetToken>;
  verificationTokens: Map<string, StoredResetToken>;
  mailJobs: Map<string, MailJob>;
  /** Reset requests waiting for a mail round, by id. */
  resetRequests: Map<string, ResetRequest>;
  sessions: Map<string, Session>;
  idempotency: Map<string, IdempotencyRecord & { caller?: string; size?: number }>;
  /** The event log by seq (as a string key, so every table is a Map of the same kind). */
  events: Map<string, MarketEvent>;
  /** The event log's one counter: the last seq given. */
  eventSequence: Map<string, number>;
  webhooks: Map<string, Webhook>;
  webhookDeliveries: Map<string, WebhookDelivery>;
  /** The webhook fan-out's one cursor: the seq of the last event fanned out. */
  fanOutCursor: Map<string, number>;
  /** Notification settings by user id (absent: the defaults). */
  notificationSettings: Map<string, NotificationSettings>;
  /** The notifier's one cursor: the seq of the last event turned into mail. */
  notifyCursor: Map<string, number>;
  oauthClients: Map<string, OAuthClient>;
  /** Authorization codes by digest. */
  oauthCodes: Map<string, StoredCode>;
  oauthGrants: Map<string, OAuthGrant>;
  /** Refresh tokens by digest. */
  oauthRefreshTokens: Map<string, RefreshToken>;
  savedSearches: Map<string, SavedSearch>;
  /** Matches recorded, by saved search id and listing id joined with a slash. */
  savedSearchMatches: Map<string, SavedSearchMatch>;
  /** Each saved search's mailed cursor: the seq its mail got to. */
  savedSearchMailed: Map<string, number>;
  /** The matcher's one cursor: the seq of the last event matched against saved searches. */
  matchCursor: Map<string, number>;
}

/** Empty tables. */
export function createMemoryState(): MemoryState {
  return {
    listings: new Map(),
    users: new Map(),
    apiKeys: new Map(),
    messages: new Map(),
    resetTokens: new Map(),
    verificationTokens: new Map(),
    mailJobs: new Map(),
    resetRequests: new Map(),
    sessions: new Map(),
    idempotency: new Map(),
    events: new Map(),
    eventSequence: new Map(),
    webhooks: new Map(),
    webhookDeliveries: new Map(),
    fanOutCursor: new Map(),
    notificationSettings: new Map(),
    notifyCursor: new Map(),
    oauthClients: new Map(),
    oauthCodes: new Map(),
    oauthGrants: new Map(),
    oauthRefreshTokens: new Map(),
    savedSearches: new Map(),
    savedSearchMatches: new Map(),
    savedSearchMailed: new Map(),
    matchCursor: new Map(),
  };
}

/**
 * Rejects a row for a user that does not exist, as the storage adapters'
 * foreign keys (all of which point at users) do: `user_not_found`.
 */
export function requireUser(state: MemoryState, userId: string): void {
  if (!state.users.has(userId)) throw new MarketplaceError("user_not_found");
}

/**
 * Stores `row` under a key not yet taken; a taken key is `internal_error`, as
 * a primary-key or unique violation other than the email's is in the adapters.
 */
export function insertNew<T>(table: Map<string, T>, key: string, row: T): void {
  if (table.has(key)) throw new MarketplaceError("internal_error");
  table.set(key, row);
}

/** Deep copy, so callers never hold a reference into stored state. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** A copy of a row found, or null for none: what every port's lookup answers. */
export function copyOrNull<T>(row: T | undefined): T | null {
  return row === undefined ? null : copy(row);
}

/** A row that lapses: a session, an idempotency record. */
interface Expiring {
  expiresAt: Date;
}

/** A copy of a row still live at `now` (an expiry equal to now has passed), or null. */
export function copyIfLive<T extends Expiring>(row: T | undefined, now: Date): T | null {
  return row !== undefined && row.expiresAt.getTime() > now.getTime() ? copy(row) : null;
}

/** Deletes the rows whose expiry is at or before `now`; returns how many went. */
export function deleteExpired(table: Map<string, Expiring>, now: Date): number {
  let removed = 0;
  for (const [key, row] of table) {
    if (row.expiresAt.getTime() <= now.getTime()) {
      table.delete(key);
      removed++;
    }
  }
  return removed;
}

/**
 * One page of rows, id descending, ids strictly below `before`. UUIDv7 strings
 * in lowercase hex sort as their bytes do, so string order is id order.
 */
export function pageById<T extends { id: string }>(rows: Iterable<T>, page: PageQuery): T[] {
  const { before } = page;
  const kept = [...rows].filter((row) => before === undefined || row.id < before);
  kept.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return kept.slice(0, Math.max(0, page.limit)).map(copy);
}

/** A copy of every table, for a unit of work to roll back to. */
export function snapshotState(state: MemoryState): () => void {
  const saved = Object.entries(state).map(([name, table]) => [name, copy(table)] as const);
  return () => {
    // The repositories hold the Map objects themselves: refill them in place.
    for (const [name, rows] of saved) {
      const table = state[name as keyof MemoryState] as Map<string, unknown>;
      table.clear();
      for (const [key, row] of rows as Map<string, unknown>) table.set(key, row);
    }
  };
}

/**
 * A durable queue's backlog (the ports' `backlog`): how many items are pending, and the earliest
 * due time among them when it is at or before `now`.
 */
export function backlogOf(
  dueTimes: Iterable<Date | null>,
  now: Date,
): { pending: number; oldestDueAt: Date | null } {
  let pending = 0;
  let oldest: Date | null = null;
  for (const due of dueTimes) {
    pending++;
    if (due !== null && due <= now && (oldest === null || due < oldest)) oldest = due;
  }
  return { pending, oldestDueAt: oldest && new Date(oldest) };
}
