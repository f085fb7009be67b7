import type { RandomSource } from "../ports/clock.js";
import { toHex } from "../support/crypto.js";

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
  /**
   * When the address was first proven (a completed password reset, the link
   * mailed at sign-up, or the ADMIN_EMAIL bootstrap); null until then.
   */
  emailVerifiedAt: Date | null;
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
  /** Whether the address has been proven (User.emailVerifiedAt is set). */
  emailVerified: boolean;
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

/** How long the verification link mailed at sign-up stays usable. */
export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The default display name: `Member ` and 6 hex characters from random bytes.
 * Nothing of the address: profiles show display names to everyone, emails only
 * to their owner and admins.
 */
export function defaultDisplayName(random: RandomSource): string {
  return `Member ${toHex(random.bytes(3))}`;
}

/** Whether `name` has the shape of the default one: its owner has not (visibly) chosen a name yet. */
export function isDefaultDisplayName(name: string): boolean {
  return /^Member [0-9a-f]{6}$/.test(name);
}

export function toUserView(user: User, activeListingsCount: number): UserView {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    isAdmin: user.isAdmin,
    accountType: user.accountType,
    activeListingsCount,
    emailVerified: user.emailVerifiedAt !== null,
    createdAt: user.createdAt,
  };
}
