/** Account types; slots per type come from settings. */
export type AccountType = "personal" | "business";
export const ACCOUNT_TYPES: readonly AccountType[] = ["personal", "business"];

/** A user as stored, secrets included. Never hand this to a presenter as is. */
export interface User {
  id: string;
  /** Trimmed and lower-cased. */
  email: string;
  displayName: string;
  isAdmin: boolean;
  accountType: AccountType;
  /** PHC string; null for a profile created by sync that never set a password. */
  passwordHash: string | null;
  /** Bumped by every password change; JWTs carry it and older ones stop working. */
  tokenVersion: number;
  createdAt: Date;
}

/** A user as callers see it: no secrets, with the derived listing count. */
export interface UserView {
  id: string;
  email: string;
  displayName: string;
  isAdmin: boolean;
  accountType: AccountType;
  activeListingsCount: number;
  createdAt: Date;
}

/** A profile as listed; email is omitted where the caller may not see it. */
export interface Profile {
  id: string;
  email?: string;
  displayName: string;
  isAdmin: boolean;
  accountType: AccountType;
}

/** Trims and lower-cases an address so that case variants are one account. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The default display name: the address's local part. */
export function defaultDisplayName(email: string): string {
  return (email.split("@")[0] ?? email).slice(0, 100) || "user";
}

export function toUserView(user: User, activeListingsCount: number): UserView {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    isAdmin: user.isAdmin,
    accountType: user.accountType,
    activeListingsCount,
    createdAt: user.createdAt,
  };
}
