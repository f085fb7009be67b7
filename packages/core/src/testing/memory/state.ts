import type { ApiKey } from "../../domain/api-key.js";
import type { Listing } from "../../domain/listing.js";
import type { MailJob } from "../../domain/mail-job.js";
import type { Message } from "../../domain/message.js";
import type { PageQuery } from "../../domain/page.js";
import type { User } from "../../domain/user.js";
import type { ResetToken } from "../../ports/reset-token-repository.js";

/** A stored single-use token (reset or verification) with its used flag. */
export interface StoredResetToken extends ResetToken {
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
  };
}

/** Deep copy, so callers never hold a reference into stored state. */
export function copy<T>(value: T): T {
  return structuredClone(value);
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
