import {
  CATEGORY_VALUES,
  EVENT_TYPES,
  MAX_EVENTS_PER_READ,
  PAGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  QUERY_MAX_LENGTH,
  QUERY_MAX_WORDS,
  SCOPES,
} from "@psm/core";

/**
 * What each request field means on the wire, for the OpenAPI document: units,
 * bounds and defaults in words. Bounds themselves come from core's schemas.
 */

const cursor = "Opaque cursor from a previous page's `next_cursor`; omit it for the first page.";
const limit = (byDefault: number) =>
  `Items per page: an integer of at least 1, default ${byDefault}; larger values are clamped to ${PAGE.maxLimit}.`;

/** Fields of NewListing and ListingPatch. */
export const LISTING_FIELDS = {
  title: "Headline of the service, 1 to 200 characters (trimmed).",
  description: "What is offered, 1 to 20,000 characters.",
  category: `One of the ten category values: ${CATEGORY_VALUES.join(", ")}.`,
  price:
    'Price in the marketplace\'s currency (capabilities `currency`): a number >= 0 or a numeric string such as "4800"; null (or omitted) for on request.',
  price_unit: "What the price buys: fixed (the whole job; default), hour, day or month.",
  condition: 'Free-form condition, at most 50 characters; default "good".',
  images: "Up to 20 http(s) image URLs, each at most 2,048 characters; default [].",
  structured_data:
    'Any JSON object (at most 16 KiB as UTF-8 JSON, 32 levels deep) stored and returned as given; default {"ai_generated": true} on creation; null clears it (PATCH).',
  contact_email: "Address buyers may write to instead of messaging, at most 254 characters; null for none.",
  expires_at:
    "ISO 8601 date-time with a timezone (2026-12-31T23:59:59Z) after which the listing stops showing in search; must be in the future; null (or omitted) for never.",
  status: "active or paused (PATCH only); reactivating a paused listing takes one of the author's slots.",
} as const;

/** An example NewListing. */
export const NEW_LISTING_EXAMPLE = {
  title: "Security audit of a Node.js API",
  description: "Two-week review of authentication, input handling and dependencies, with a written report.",
  category: "cybersecurity",
  price: 4800,
  contact_email: "audits@example.com",
};

/** Query of GET /api/listings. */
export const LISTING_QUERY = {
  limit: limit(PAGE.defaultLimit),
  category: "A category value, or all (default: every category).",
  search:
    "Case- and accent-insensitive substring of the title, at most 200 characters. A search that reaches the storage's bound on its work (database time, or rows examined) answers the matches among the listings it examined, newest first, with a next_cursor to go on: a page may be short, even empty.",
  q: `Words to find in the title and description, at most ${QUERY_MAX_LENGTH} characters and ${QUERY_MAX_WORDS} words: case- and accent-insensitive (cafe finds café), English stemming (consulting finds consultant), every word required, the last one also as a prefix (kube finds Kubernetes). Default order with q: relevance. Like search, a q that reaches the storage's bound on its work answers a short page with a next_cursor.`,
  min_price:
    "Only listings priced at least this (a number >= 0, inclusive); listings without a price are left out.",
  max_price:
    "Only listings priced at most this (a number >= 0, inclusive, not below min_price); listings without a price are left out.",
  sort: "newest (default without q), relevance (default with q: listings whose title holds every word first, then those that need the description, newer first in each; without q the same as newest), price_asc (cheapest first, equal prices oldest first) or price_desc (dearest first, equal prices newest first); in both price sorts listings without a price come last. A cursor belongs to its sort.",
  facets:
    "category: the answer adds facets.category, the number of matches per category over every criterion but category itself (so each category's count shows beside the filter), and facets_capped.",
  user_id: "Only this author's listings (a UUID).",
  status: "active (default), paused, expired or all; other than active only for your own listings or admins.",
  cursor,
} as const;

/** Paging of keys, profiles and the admin lists. */
export const PAGE_QUERY = { limit: limit(PAGE.adminDefaultLimit), cursor } as const;

/** Query of GET /api/messages. */
export const MESSAGE_QUERY = {
  user_id: "Whose messages (a UUID); default the caller. Another user's need admin rights (strict mode).",
  type: "received (default) or sent.",
  limit: limit(PAGE.defaultLimit),
  cursor,
} as const;

/** Body of POST /api/messages. */
export const MESSAGE_FIELDS = {
  listing_id: "The listing the message is about (a UUID).",
  sender_id:
    "The sender (a UUID). Strict mode: optional, and only the caller may be named; legacy mode: required.",
  receiver_id: "The recipient (a UUID); one of the two parties must be the listing's author.",
  content: "The message text, 1 to 5,000 characters.",
  is_agent: "Whether an AI agent wrote it; default true for API-key callers, false otherwise.",
} as const;

const between = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH.toLocaleString("en-US")} characters`;
const password = `The password, ${between}.`;
const newPassword = `The new password, ${between}; it replaces the old one and ends every JWT issued before.`;

/** Account fields. */
export const ACCOUNT_FIELDS = {
  email: "Email address, at most 254 characters; compared case-insensitively.",
  password,
  new_password: newPassword,
  display_name: 'Public name, 1 to 100 characters (trimmed); default "Member" and six hex digits.',
  token:
    "The token of the mailed link (the link's `token` query parameter): single use, valid 1 hour for a password reset, 24 hours for an address verification.",
  name: 'A label for the key, 1 to 100 characters (trimmed); default "API Key".',
  id: "The profile's user id (a UUID); in strict mode the caller's own, unless the caller is an admin.",
  account_type: "personal or business; only admins (strict mode) may set it.",
  user_id: "The user (a UUID).",
  post_id: "The listing to delete (a UUID).",
} as const;

/** Fields of CreateApiKey and RotateApiKey. */
export const KEY_FIELDS = {
  name: ACCOUNT_FIELDS.name,
  scopes: `What the key may do beyond public reads, one or more of ${SCOPES.join(", ")}; omitted: every scope its maker holds (a 1.0.2 key). \`admin\` only for an admin. A scope the maker lacks is 403 insufficient_scope.`,
  grace_seconds:
    "How long the old key keeps working beside the new one, 0 to 604800 seconds; default 86400 (a day).",
  expires_at:
    "ISO 8601 date-time with a timezone after which the key is refused (401 api_key_expired): in the future, at most 365 days ahead, and no later than the expiry of the key making it; omitted: the maker's key's expiry, or never.",
} as const;

/** Query of GET /api/events. */
export const EVENT_QUERY = {
  after: "Only events with a greater seq: the last seq you saw (default 0, from the oldest kept).",
  types: `Only these types, comma-separated: ${EVENT_TYPES.join(", ")}; default all.`,
  limit: `Events per read, 1 to ${MAX_EVENTS_PER_READ}; default ${MAX_EVENTS_PER_READ}.`,
} as const;
