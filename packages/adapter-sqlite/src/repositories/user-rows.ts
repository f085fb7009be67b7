import type { AccountType, ApiKey, Scope, User } from "@psm/core";

/**
 * The reads every signed-in request makes (its user, or its API key with its user) read rows as
 * arrays and map them here: through drizzle's mapping a user by id took 4.0 µs through the port,
 * this way 3.2.
 */
export const USER_COLUMNS =
  "u.id, u.email, u.display_name, u.is_admin, u.account_type, u.password_hash, u.token_version, " +
  "u.email_verified_at, u.created_at";

/** A user as USER_COLUMNS reads it. */
export type UserRow = [
  string,
  string,
  string,
  number,
  AccountType,
  string | null,
  number,
  number | null,
  number,
];

const dateOrNull = (ms: number | null) => (ms === null ? null : new Date(ms));

export function toUser(row: UserRow): User {
  const [id, email, displayName, isAdmin, accountType, passwordHash, tokenVersion, verifiedAt, createdAt] =
    row;
  return {
    id,
    email,
    displayName,
    isAdmin: isAdmin !== 0,
    accountType,
    passwordHash,
    tokenVersion,
    emailVerifiedAt: dateOrNull(verifiedAt),
    createdAt: new Date(createdAt),
  };
}

export const API_KEY_COLUMNS =
  "k.id, k.user_id, k.name, k.key_hash, k.prefix, k.scopes, k.expires_at, k.is_active, k.last_used, k.created_at";

type KeyRow = [
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  number | null,
  number,
  number | null,
  number,
];
type NoUserRow = [null, null, null, null, null, null, null, null, null];

/** An API key as API_KEY_COLUMNS reads it, then its user's USER_COLUMNS (all null without one). */
export type KeyWithUserRow = [...KeyRow, ...UserRow] | [...KeyRow, ...NoUserRow];

export function toKeyWithUser(row: KeyWithUserRow): { key: ApiKey; user: User | null } {
  const [id, userId, name, keyHash, prefix, scopes, expiresAt, isActive, lastUsed, createdAt] = row;
  const key: ApiKey = {
    id,
    userId,
    name,
    keyHash,
    prefix,
    scopes: scopes === null ? null : (JSON.parse(scopes) as Scope[]),
    expiresAt: dateOrNull(expiresAt),
    isActive: isActive !== 0,
    lastUsed: dateOrNull(lastUsed),
    createdAt: new Date(createdAt),
  };
  const user = row.slice(10) as UserRow | NoUserRow;
  return { key, user: user[0] === null ? null : toUser(user as UserRow) };
}
