import {
  type ApiKey,
  type CreatedApiKey,
  type ExtractedField,
  effectiveStatus,
  type Listing,
  type ListingLimit,
  type MarketEvent,
  type Message,
  type ParsedDocument,
  type Profile,
  type UserView,
} from "@psm/core";

// Formatting a date was ~3 % of a page's CPU (profile of the default page, README
// "Performance"), and a page shows the same listings' dates again and again:
// the strings are remembered by their instant. Bounded: cleared when full.
const ISO_CACHE_SIZE = 4096;
const isoCache = new Map<number, string>();

/** A Date on the wire: ISO 8601 with milliseconds (memoised by instant; a Date's text never changes). */
export function iso(date: Date): string {
  const ms = date.getTime();
  let text = isoCache.get(ms);
  if (text === undefined) {
    text = date.toISOString();
    if (isoCache.size >= ISO_CACHE_SIZE) isoCache.clear();
    isoCache.set(ms, text);
  }
  return text;
}

/** Listing as the interface shows it, with the effective status at `now`. */
export function presentListing(listing: Listing, now: Date) {
  return {
    id: listing.id,
    title: listing.title,
    description: listing.description,
    price: listing.price,
    price_unit: listing.priceUnit,
    category: listing.category,
    condition: listing.condition,
    images: listing.images,
    user_id: listing.userId,
    structured_data: listing.structuredData,
    status: effectiveStatus(listing, now),
    contact_email: listing.contactEmail,
    expires_at: listing.expiresAt === null ? null : iso(listing.expiresAt),
    views: listing.views,
    created_at: iso(listing.createdAt),
  };
}

/** User (never the stored record: UserView has no secrets). */
export function presentUser(user: UserView) {
  return {
    id: user.id,
    email: user.email,
    display_name: user.displayName,
    is_admin: user.isAdmin,
    account_type: user.accountType,
    active_listings_count: user.activeListingsCount,
    email_verified: user.emailVerified,
    created_at: iso(user.createdAt),
  };
}

/** Profile; `email` is omitted, not null, where the caller may not see it. */
export function presentProfile(profile: Profile) {
  return {
    id: profile.id,
    ...(profile.email === undefined ? {} : { email: profile.email }),
    display_name: profile.displayName,
    is_admin: profile.isAdmin,
    account_type: profile.accountType,
  };
}

/** Message. */
export function presentMessage(message: Message) {
  return {
    id: message.id,
    listing_id: message.listingId,
    sender_id: message.senderId,
    receiver_id: message.receiverId,
    content: message.content,
    is_agent: message.isAgent,
    created_at: iso(message.createdAt),
  };
}

/** ApiKey without its value (only a digest is stored anyway). */
export function presentApiKey(key: ApiKey) {
  return {
    id: key.id,
    user_id: key.userId,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes === null ? null : [...key.scopes],
    expires_at: key.expiresAt === null ? null : iso(key.expiresAt),
    is_active: key.isActive,
    last_used: key.lastUsed === null ? null : iso(key.lastUsed),
    created_at: iso(key.createdAt),
  };
}

/** A new key: the record plus its value, shown this once. */
export function presentCreatedApiKey(created: CreatedApiKey) {
  return { ...presentApiKey(created.apiKey), key: created.secret };
}

/** The listing-slot report; its mixed casing is the interface's own. */
export function presentLimit(limit: ListingLimit) {
  return {
    canPost: limit.canPost,
    active_listings_count: limit.activeListingsCount,
    maxSlots: limit.maxSlots,
    account_type: limit.accountType,
  };
}

/** Fields extracted from a document, with per-field confidence and source. */
export function presentParsedDocument(doc: ParsedDocument) {
  const { fields } = doc;
  return {
    title: doc.title,
    description: doc.description,
    category: doc.category,
    price: doc.price,
    price_unit: doc.priceUnit,
    contact_email: doc.contactEmail,
    fields: {
      title: presentField(fields.title),
      description: presentField(fields.description),
      category: presentField(fields.category),
      price: presentField(fields.price),
      price_unit: presentField(fields.priceUnit),
      contact_email: presentField(fields.contactEmail),
    },
  };
}

function presentField<T>(field: ExtractedField<T>) {
  return { value: field.value, confidence: field.confidence, source: field.source };
}

/** An event as GET /api/events and webhook deliveries show it. */
export function presentEvent(event: MarketEvent) {
  return {
    seq: event.seq,
    id: event.id,
    type: event.type,
    occurred_at: iso(event.occurredAt),
    data: { ...event.data },
  };
}
