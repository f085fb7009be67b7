import type { AccountType } from "./user.js";

/** Listing slots per account type; admins use the `admin` figure. */
export interface SlotSettings {
  personal: number;
  business: number;
  admin: number;
}

export const DEFAULT_SLOTS: SlotSettings = { personal: 5, business: 50, admin: 1000 };

export function maxSlots(slots: SlotSettings, user: { accountType: AccountType; isAdmin: boolean }): number {
  return user.isAdmin ? slots.admin : slots[user.accountType];
}

/** Page sizes: default and maximum. */
export const PAGE = { defaultLimit: 20, maxLimit: 100, adminDefaultLimit: 100 } as const;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const JWT_TTL_SECONDS = 7 * 24 * 60 * 60;
export const RESET_MAILS_PER_ADDRESS_PER_HOUR = 3;
/** The most a facet count says: a larger one is reported as this, flagged capped. */
export const FACET_CAP = 1000;
