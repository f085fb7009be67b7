import { ACCOUNT_TYPES, API_KEY_PATTERN, CATEGORY_VALUES, ERROR_CODES, LISTING_STATUSES } from "@psm/core";
import * as v from "valibot";

/**
 * Valibot schemas of the response bodies, for the OpenAPI document only: core
 * owns the request schemas; these describe what presenters.ts writes.
 */

const named = <S extends v.GenericSchema>(ref: string, schema: S) => v.pipe(schema, v.metadata({ ref }));
const uuid = v.pipe(v.string(), v.uuid());
const dateTime = v.pipe(v.string(), v.isoTimestamp());
const nextCursor = v.nullable(v.string());

/** {error, code}: every failure. */
export const ErrorSchema = named("Error", v.object({ error: v.string(), code: v.picklist(ERROR_CODES) }));

/** Listing. */
export const ListingSchema = named(
  "Listing",
  v.object({
    id: uuid,
    title: v.string(),
    description: v.string(),
    price: v.nullable(v.number()),
    category: v.picklist(CATEGORY_VALUES),
    condition: v.string(),
    images: v.array(v.string()),
    user_id: uuid,
    structured_data: v.nullable(v.record(v.string(), v.unknown())),
    status: v.picklist(LISTING_STATUSES),
    contact_email: v.nullable(v.string()),
    expires_at: v.nullable(dateTime),
    views: v.pipe(v.number(), v.integer()),
    created_at: dateTime,
  }),
);

/** User. */
export const UserSchema = named(
  "User",
  v.object({
    id: uuid,
    email: v.pipe(v.string(), v.email()),
    display_name: v.string(),
    is_admin: v.boolean(),
    account_type: v.picklist(ACCOUNT_TYPES),
    active_listings_count: v.pipe(v.number(), v.integer()),
    /** Whether the address has been proven (a completed password reset or the link mailed at sign-up). */
    email_verified: v.boolean(),
    created_at: dateTime,
  }),
);

/** Profile; email only for its owner and admins (strict mode). */
export const ProfileSchema = named(
  "Profile",
  v.object({
    id: uuid,
    email: v.optional(v.string()),
    display_name: v.string(),
    is_admin: v.boolean(),
    account_type: v.picklist(ACCOUNT_TYPES),
  }),
);

/** Message. */
export const MessageSchema = named(
  "Message",
  v.object({
    id: uuid,
    listing_id: uuid,
    sender_id: uuid,
    receiver_id: uuid,
    content: v.string(),
    is_agent: v.boolean(),
    created_at: dateTime,
  }),
);

const apiKeyEntries = {
  id: uuid,
  user_id: uuid,
  name: v.string(),
  is_active: v.boolean(),
  last_used: v.nullable(dateTime),
  created_at: dateTime,
};

/** ApiKey as listed. */
export const ApiKeySchema = named("ApiKey", v.object(apiKeyEntries));

/** ApiKey in the creation answer, with its value (shown once). */
export const CreatedApiKeySchema = named(
  "CreatedApiKey",
  v.object({ ...apiKeyEntries, key: v.pipe(v.string(), v.regex(API_KEY_PATTERN)) }),
);

/** GET/POST /api/profiles/limit. */
export const ListingLimitSchema = named(
  "ListingLimit",
  v.object({
    canPost: v.boolean(),
    active_listings_count: v.pipe(v.number(), v.integer()),
    maxSlots: v.pipe(v.number(), v.integer()),
    account_type: v.string(),
  }),
);

const field = <S extends v.GenericSchema>(value: S) =>
  v.object({
    value,
    confidence: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
    source: v.nullable(v.string()),
  });

/** POST /api/parse-pdf. */
export const ParsedDocumentSchema = named(
  "ParsedDocument",
  v.object({
    title: v.string(),
    description: v.string(),
    category: v.picklist(CATEGORY_VALUES),
    price: v.nullable(v.number()),
    contact_email: v.nullable(v.string()),
    fields: v.object({
      title: field(v.string()),
      description: field(v.string()),
      category: field(v.picklist(CATEGORY_VALUES)),
      price: field(v.nullable(v.number())),
      contact_email: field(v.nullable(v.string())),
    }),
  }),
);

/** GET /api/capabilities (core's CapabilitiesDocument). */
export const CapabilitiesSchema = named(
  "Capabilities",
  v.object({
    name: v.string(),
    version: v.string(),
    security_mode: v.picklist(["strict", "legacy"]),
    capabilities: v.array(
      v.object({
        name: v.string(),
        method: v.picklist(["GET", "POST", "PUT", "PATCH", "DELETE"]),
        path: v.string(),
        auth: v.picklist(["public", "key-or-jwt", "jwt", "admin"]),
        description: v.string(),
      }),
    ),
    categories: v.array(v.object({ value: v.string(), label: v.string(), display_slug: v.string() })),
    authentication: v.array(
      v.object({ type: v.string(), header: v.string(), format: v.string(), how_obtained: v.string() }),
    ),
    known_gaps: v.array(v.string()),
    changes_from_1_0_2: v.array(v.string()),
    limits: v.record(v.string(), v.union([v.string(), v.number()])),
  }),
);

/** {success: true}. */
export const SuccessSchema = v.object({ success: v.literal(true) });

/** A page of `key` items with count and next_cursor. */
export function pageOf<K extends string, S extends v.GenericSchema>(key: K, item: S) {
  return v.object({
    ...({ [key]: v.array(item) } as { [P in K]: v.ArraySchema<S, undefined> }),
    count: v.pipe(v.number(), v.integer()),
    next_cursor: nextCursor,
  });
}
