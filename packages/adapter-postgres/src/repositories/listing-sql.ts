import { foldSearchText, type Listing, type ListingChanges } from "@psm/core";
import { and, eq, gt, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { decoderOf } from "../array-rows.js";
import { listings } from "../schema.js";

/**
 * Every column of a Listing; the search-only `title_folded` (core's
 * foldSearchText of the title, computed here rather than by lower(), whose
 * folding depends on the database's ctype) stays inside the adapter.
 */
export const listingColumns = {
  id: listings.id,
  title: listings.title,
  description: listings.description,
  price: listings.price,
  priceUnit: listings.priceUnit,
  category: listings.category,
  condition: listings.condition,
  images: listings.images,
  userId: listings.userId,
  structuredData: listings.structuredData,
  status: listings.status,
  contactEmail: listings.contactEmail,
  expiresAt: listings.expiresAt,
  views: listings.views,
  createdAt: listings.createdAt,
};

const LISTING_FIELDS = Object.entries(listingColumns);
/** listingSelect's text, per alias. */
const SELECTS = new Map<string, string>();

/**
 * Every column of a Listing read from `alias`, each named as its field: what a statement of
 * plain SQL selects to answer listings without a second round trip for them (toListing maps it).
 */
export function listingSelect(alias: "listings" | "l"): SQL {
  let text = SELECTS.get(alias);
  if (text === undefined) {
    text = LISTING_FIELDS.map(([key, column]) => `"${alias}"."${column.name}" as "${key}"`).join(", ");
    SELECTS.set(alias, text);
  }
  return sql.raw(text);
}

// Each column's own mapping, where it has one (its instants), as drizzle's select applies it.
const DECODERS = LISTING_FIELDS.flatMap(([key, column]) => {
  const decode = decoderOf(column);
  return decode ? [{ key, decode }] : [];
});

/** The Listing of a row selected with listingSelect. */
export function toListing(row: Record<string, unknown>): Listing {
  const listing = { ...row };
  for (const { key, decode } of DECODERS) {
    const value = listing[key];
    if (value !== null && value !== undefined) listing[key] = decode(value);
  }
  return listing as unknown as Listing;
}

/** No expiry, or one after `now`. */
export function unexpiredAt(now: Date): SQL {
  return or(isNull(listings.expiresAt), gt(listings.expiresAt, now))!;
}

/** An expiry at or before `now`. */
export function pastExpiryAt(now: Date): SQL {
  return lte(listings.expiresAt, now);
}

/** Active and unexpired at `now`: the listings that count against slots and appear in search. */
export function activeAt(now: Date): SQL {
  return and(eq(listings.status, "active"), unexpiredAt(now))!;
}

/** The row written for a new listing. */
export function toRow(listing: Listing): typeof listings.$inferInsert {
  return { ...listing, titleFolded: foldSearchText(listing.title) };
}

/** The fields a patch may change: an explicit list, so an unexpected key never reaches SQL. */
const EDITABLE = [
  "title",
  "description",
  "price",
  "priceUnit",
  "category",
  "condition",
  "images",
  "structuredData",
  "contactEmail",
  "expiresAt",
  "status",
] as const satisfies readonly (keyof ListingChanges)[];

type ListingSet = Partial<typeof listings.$inferInsert>;

function copyField<K extends (typeof EDITABLE)[number]>(
  set: ListingSet,
  changes: ListingChanges,
  key: K,
): void {
  const value = changes[key];
  if (value !== undefined) set[key] = value;
}

/** The SET clause for a patch; keys left undefined are not touched. */
export function toSet(changes: ListingChanges): ListingSet {
  const set: ListingSet = {};
  for (const key of EDITABLE) copyField(set, changes, key);
  if (changes.title !== undefined) set.titleFolded = foldSearchText(changes.title);
  return set;
}
