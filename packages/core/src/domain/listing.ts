import type { Category } from "./category.js";

/** The statuses a listing is stored with. `expired` is never stored. */
export type StoredListingStatus = "active" | "paused";
/** The status a caller sees: `expired` is an active listing whose expires_at has passed. */
export type ListingStatus = StoredListingStatus | "expired";
/** The status filter of a listing search. */
export type ListingStatusFilter = ListingStatus | "all";

export const LISTING_STATUSES: readonly ListingStatus[] = ["active", "paused", "expired"];

/** What a listing's price buys (decisions.md 1.3.0 "Prices and units"): the whole job, or a span of time. */
export type PriceUnit = "fixed" | "hour" | "day" | "month";
/** The price units, `fixed` (the default, and every 1.0.2 listing's) first. */
export const PRICE_UNITS: readonly PriceUnit[] = ["fixed", "hour", "day", "month"];

/** The marketplace's currency when the settings name none (decisions.md's examples are in USD). */
export const DEFAULT_CURRENCY = "USD";

/** A service listing as stored. Times are Dates with millisecond precision. */
export interface Listing {
  id: string;
  title: string;
  description: string;
  price: number | null;
  /** What the price buys; `fixed` for listings stored before 1.3. */
  priceUnit: PriceUnit;
  category: Category;
  condition: string;
  images: string[];
  userId: string;
  structuredData: Record<string, unknown> | null;
  status: StoredListingStatus;
  contactEmail: string | null;
  expiresAt: Date | null;
  views: number;
  createdAt: Date;
}

/** The status a caller sees at `now`. */
export function effectiveStatus(listing: Pick<Listing, "status" | "expiresAt">, now: Date): ListingStatus {
  if (
    listing.status === "active" &&
    listing.expiresAt !== null &&
    listing.expiresAt.getTime() <= now.getTime()
  ) {
    return "expired";
  }
  return listing.status;
}

/** Whether a listing counts against its author's slots and appears in search. */
export function isSearchable(listing: Pick<Listing, "status" | "expiresAt">, now: Date): boolean {
  return effectiveStatus(listing, now) === "active";
}

/** The editable fields of a listing (PATCH). */
export type ListingChanges = Partial<
  Pick<
    Listing,
    | "title"
    | "description"
    | "price"
    | "priceUnit"
    | "category"
    | "condition"
    | "images"
    | "structuredData"
    | "contactEmail"
    | "expiresAt"
    | "status"
  >
>;

/** Applies changes to a listing, returning a new object. */
export function applyChanges(listing: Listing, changes: ListingChanges): Listing {
  const next = { ...listing };
  for (const [key, value] of Object.entries(changes) as [keyof ListingChanges, unknown][]) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  return next;
}
