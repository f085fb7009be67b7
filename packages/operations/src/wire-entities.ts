import {
  ACCOUNT_TYPES,
  API_KEY_PATTERN,
  CATEGORY_VALUES,
  EVENT_TYPES,
  LISTING_STATUSES,
  PRICE_UNITS,
  SCOPES,
} from "@psm/core";
import * as v from "valibot";
import { about, categories, count, instant, named, nullableInstant, uuid } from "./wire-fields.js";

/** The wire's entities (wire-schemas.ts): what presenters.ts writes for each domain object. */

/** Listing. */
export const ListingSchema = named(
  "Listing",
  v.object({
    id: uuid("The listing's id (a UUID)."),
    title: about("Headline of the service, 1 to 200 characters.", v.string()),
    description: about("What is offered, 1 to 20,000 characters.", v.string()),
    price: about(
      "Price (a number >= 0) in the marketplace's currency (capabilities `currency`), for what price_unit says; null for on request.",
      v.nullable(v.number()),
    ),
    price_unit: about(
      "What the price buys: fixed (the whole job; every listing made before 1.3), hour, day or month.",
      v.picklist(PRICE_UNITS),
    ),
    category: about(categories, v.picklist(CATEGORY_VALUES)),
    condition: about(
      'Free-form condition, at most 50 characters; "good" unless the author said otherwise.',
      v.string(),
    ),
    images: about("Image URLs (http or https), at most 20; empty when there are none.", v.array(v.string())),
    user_id: uuid("The author's user id (a UUID)."),
    structured_data: about(
      'The JSON object the author stored, returned as given (at most 16 KiB); {"ai_generated": true} when none was sent at creation; null once cleared by an edit.',
      v.nullable(v.record(v.string(), v.unknown())),
    ),
    status: about(
      "active (searchable, takes a slot), paused (hidden by its author or an admin) or expired (active but past expires_at).",
      v.picklist(LISTING_STATUSES),
    ),
    contact_email: about(
      "Address buyers may write to instead of messaging; null for none.",
      v.nullable(v.string()),
    ),
    expires_at: nullableInstant("When the listing stops showing in search", "if it never expires"),
    views: count("How many views have been recorded (POST /api/listings/{id}/view): an integer >= 0."),
    created_at: instant("When the listing was created"),
  }),
);

/** User. */
export const UserSchema = named(
  "User",
  v.object({
    id: uuid("The user's id (a UUID)."),
    email: about("The account's email address, lower-cased.", v.pipe(v.string(), v.email())),
    display_name: about(
      'Public name, 1 to 100 characters; "Member" and six hex digits unless chosen.',
      v.string(),
    ),
    is_admin: about("Whether the user is an administrator.", v.boolean()),
    account_type: about(
      "personal or business; decides how many active listings the user may have.",
      v.picklist(ACCOUNT_TYPES),
    ),
    active_listings_count: count("How many of the user's listings are active now (each takes a slot)."),
    email_verified: about(
      "Whether the address has been proven (a completed password reset or the link mailed at sign-up).",
      v.boolean(),
    ),
    created_at: instant("When the account was created"),
  }),
);

/** Profile; email only for its owner and admins (strict mode). */
export const ProfileSchema = named(
  "Profile",
  v.object({
    id: uuid("The user's id (a UUID)."),
    email: v.optional(
      about(
        "The account's email address; present only to the user and admins in strict mode (to everyone in legacy mode).",
        v.string(),
      ),
    ),
    display_name: about("Public name, 1 to 100 characters.", v.string()),
    is_admin: about("Whether the user is an administrator.", v.boolean()),
    account_type: about("personal or business.", v.picklist(ACCOUNT_TYPES)),
  }),
);

/** Message. */
export const MessageSchema = named(
  "Message",
  v.object({
    id: uuid("The message's id (a UUID)."),
    listing_id: uuid("The listing the message is about (a UUID)."),
    sender_id: uuid("Who sent it (a user id, a UUID)."),
    receiver_id: uuid("Who it is for (a user id, a UUID)."),
    content: about("The message text, 1 to 5,000 characters.", v.string()),
    is_agent: about("Whether an AI agent wrote it, as the sender declared.", v.boolean()),
    created_at: instant("When it was sent"),
  }),
);

const apiKeyEntries = {
  id: uuid("The key's id (a UUID); deactivate it with DELETE /api/keys/{id}."),
  user_id: uuid("The key's owner (a user id, a UUID); the key acts with this user's rights."),
  name: about("The label given at creation, 1 to 100 characters.", v.string()),
  prefix: about(
    "The key's first 12 characters (psm_ and 8 hex digits), to tell keys apart; null for keys made before 1.3.",
    v.nullable(v.string()),
  ),
  scopes: about(
    `What the key may do beyond public reads (${SCOPES.join(", ")}); null for a key made without scopes, which may do all its owner may.`,
    v.nullable(v.array(v.picklist(SCOPES))),
  ),
  expires_at: nullableInstant("When the key stops working (401 api_key_expired)", "if it never expires"),
  is_active: about("Whether the key is accepted; false once deactivated (401 api_key_revoked).", v.boolean()),
  last_used: nullableInstant(
    "When the key last authenticated a request, updated at most once a minute",
    "if never used",
  ),
  created_at: instant("When the key was created"),
};

/** ApiKey as listed. */
export const ApiKeySchema = named("ApiKey", v.object(apiKeyEntries));

/** ApiKey in the creation answer, with its value (shown once). */
export const CreatedApiKeySchema = named(
  "CreatedApiKey",
  v.object({
    ...apiKeyEntries,
    key: about(
      "The key itself, for the X-API-Key header: psm_ and 64 lowercase hex characters. Shown this once; only a digest is stored.",
      v.pipe(v.string(), v.regex(API_KEY_PATTERN)),
    ),
  }),
);

/** GET/POST /api/profiles/limit. */
export const ListingLimitSchema = named(
  "ListingLimit",
  v.object({
    canPost: about("Whether the user has a free slot for one more active listing.", v.boolean()),
    active_listings_count: count("How many of the user's listings are active now."),
    maxSlots: count("How many active listings the user may have at once (by account type; admins more)."),
    account_type: about("personal or business.", v.string()),
  }),
);

const field = <S extends v.GenericSchema>(what: string, value: S) =>
  about(
    `What was found for ${what}, how sure the parser is and where it was found.`,
    v.object({
      value: about(`The extracted ${what}; same meaning as the top-level field.`, value),
      confidence: about(
        "How sure the parser is, from 0 (a guess or the default) to 1 (read verbatim).",
        v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
      ),
      source: about(
        "The snippet of the document the value came from (bounded); null when it is a default.",
        v.nullable(v.string()),
      ),
    }),
  );

/** POST /api/parse-pdf. */
export const ParsedDocumentSchema = named(
  "ParsedDocument",
  v.object({
    title: about("Suggested title, at most 200 characters.", v.string()),
    description: about("Suggested description, at most 20,000 characters.", v.string()),
    category: about(`Suggested category. ${categories}`, v.picklist(CATEGORY_VALUES)),
    price: about("Suggested price (a number >= 0); null when none was found.", v.nullable(v.number())),
    price_unit: about(
      'What the suggested price buys: hour, day or month when the text says so ("per hour", "/day", "monthly retainer"), else fixed.',
      v.picklist(PRICE_UNITS),
    ),
    contact_email: about(
      "An email address found in the document; null when none was.",
      v.nullable(v.string()),
    ),
    fields: about(
      "Per field: the value, the parser's confidence and the snippet it came from.",
      v.object({
        title: field("title", v.string()),
        description: field("description", v.string()),
        category: field("category", v.picklist(CATEGORY_VALUES)),
        price: field("price", v.nullable(v.number())),
        price_unit: field("price unit", v.picklist(PRICE_UNITS)),
        contact_email: field("contact email", v.nullable(v.string())),
      }),
    ),
  }),
);

/** An event of GET /api/events (decisions.md 1.3.0 "Events"). */
export const EventSchema = named(
  "Event",
  v.object({
    seq: about(
      "Increases in commit order: pass the last one seen as `after` to read what came since, never skipping or repeating one.",
      v.pipe(v.number(), v.integer(), v.minValue(1)),
    ),
    id: about(
      "evt_ and 26 characters: stable, and the webhook-id of its deliveries; deduplicate by it.",
      v.pipe(v.string(), v.regex(/^evt_[0-9A-Z]{26}$/)),
    ),
    type: about(`What happened: ${EVENT_TYPES.join(", ")}.`, v.picklist(EVENT_TYPES)),
    occurred_at: instant("When it happened"),
    data: about(
      "Ids only: {listing_id} for listing events; {message_id, listing_id, sender_id} for message.received; {saved_search_id, listing_id} for saved_search.matched. Read the rest from the API.",
      v.record(v.string(), v.string()),
    ),
  }),
);
