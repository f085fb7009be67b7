import {
  type Category,
  foldSearchText,
  type Listing,
  type PriceUnit,
  type StoredListingStatus,
} from "@psm/core";

/** A listings row as the raw statements select it (snake_case, JSON as text, times as ms). */
export interface ListingRow {
  id: string;
  title: string;
  description: string;
  price: number | null;
  price_unit: PriceUnit;
  category: Category;
  condition: string;
  images: string;
  user_id: string;
  structured_data: string | null;
  status: StoredListingStatus;
  contact_email: string | null;
  expires_at: number | null;
  views: number;
  created_at: number;
}

/** The select list every listing read uses, for the table aliased `l`. */
export const LISTING_COLUMNS =
  "l.id, l.title, l.description, l.price, l.price_unit, l.category, l.condition, l.images, l.user_id, " +
  "l.structured_data, l.status, l.contact_email, l.expires_at, l.views, l.created_at";

/** Maps a row to the domain type; JSON and ms timestamps round-trip exactly. */
export function toListing(row: ListingRow): Listing {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    price: row.price,
    priceUnit: row.price_unit,
    category: row.category,
    condition: row.condition,
    images: JSON.parse(row.images) as string[],
    userId: row.user_id,
    structuredData:
      row.structured_data === null ? null : (JSON.parse(row.structured_data) as Record<string, unknown>),
    status: row.status,
    contactEmail: row.contact_email,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    views: row.views,
    createdAt: new Date(row.created_at),
  };
}

/** The named parameters of an insert or a full update, from a listing. */
export function toParams(listing: Listing): Record<string, string | number | null> {
  return {
    id: listing.id,
    title: listing.title,
    title_folded: foldSearchText(listing.title),
    description: listing.description,
    price: listing.price,
    price_unit: listing.priceUnit,
    category: listing.category,
    condition: listing.condition,
    images: JSON.stringify(listing.images),
    user_id: listing.userId,
    structured_data: listing.structuredData === null ? null : JSON.stringify(listing.structuredData),
    status: listing.status,
    contact_email: listing.contactEmail,
    expires_at: listing.expiresAt === null ? null : listing.expiresAt.getTime(),
    views: listing.views,
    created_at: listing.createdAt.getTime(),
  };
}

/** The SQL condition of "active and unexpired at @now" for the table aliased `l`. */
export const ACTIVE_AT_NOW = "l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > @now)";
