import { ACCOUNT_TYPES, API_KEY_PATTERN, CATEGORY_VALUES, ERROR_CODES, LISTING_STATUSES } from "@psm/core";
import * as v from "valibot";

/**
 * Valibot schemas of the response bodies, for the OpenAPI document only: core
 * owns the request schemas; these describe what presenters.ts writes. Every
 * property carries a description (what it means, units, format, when null),
 * which /openapi.json and the clients generated from it show.
 */

const named = <S extends v.GenericSchema>(ref: string, schema: S) => v.pipe(schema, v.metadata({ ref }));

/** `schema` with a description of its own. */
const about = <S extends v.GenericSchema>(description: string, schema: S) =>
  v.pipe(schema, v.description(description));

/**
 * A named schema used as a property, with the property's own description.
 * The converter keeps nothing beside a bare `$ref`, so the reference is
 * wrapped in a one-member `allOf` (the usual OpenAPI idiom), which keeps it.
 */
export const referenced = <S extends v.GenericSchema>(description: string, schema: S) =>
  about(description, v.intersect([schema]));

const uuid = (description: string) => about(description, v.pipe(v.string(), v.uuid()));
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const instant = (what: string) =>
  about(`${what}: an ISO 8601 UTC date-time with milliseconds (2026-03-01T09:30:00.000Z).`, timestamp);
const nullableInstant = (what: string, whenNull: string) =>
  about(
    `${what}: an ISO 8601 UTC date-time with milliseconds (2026-03-01T09:30:00.000Z); null ${whenNull}.`,
    v.nullable(timestamp),
  );
const count = (description: string) => about(description, v.pipe(v.number(), v.integer(), v.minValue(0)));
const categories = `One of the ten category values: ${CATEGORY_VALUES.join(", ")}.`;

/** `count` of every page. */
export const COUNT = count(
  "How many items this page holds (0 to the page's limit); not the total across pages.",
);
/** `next_cursor` of every page. */
export const NEXT_CURSOR = about(
  "Pass as `cursor` to get the next page; null on the last page.",
  v.nullable(v.string()),
);
/** `next_cursor` of a listing search, whose pages may end short (core's ListingSearchResult). */
export const SEARCH_NEXT_CURSOR = about(
  "Pass as `cursor` to get the next page; null on the last page, and only there: a search that stopped early to bound its work answers a short, even empty, page with a next_cursor, so page on until it is null.",
  v.nullable(v.string()),
);
/** `success` of the answers that only confirm. */
export const SUCCESS = about("Always true: the operation was carried out.", v.literal(true));

/** {error, code}: every failure. */
export const ErrorSchema = named(
  "Error",
  v.object({
    error: about("A message for people, in English; may name the field at fault.", v.string()),
    code: about(
      "A stable, machine-readable code for the failure; branch on this, not on `error`.",
      v.picklist(ERROR_CODES),
    ),
  }),
);

/** Listing. */
export const ListingSchema = named(
  "Listing",
  v.object({
    id: uuid("The listing's id (a UUID)."),
    title: about("Headline of the service, 1 to 200 characters.", v.string()),
    description: about("What is offered, 1 to 20,000 characters.", v.string()),
    price: about(
      "Price in the listing's own terms (a number >= 0, no currency implied); null for on request.",
      v.nullable(v.number()),
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
  is_active: about("Whether the key is accepted; false once deactivated.", v.boolean()),
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
        contact_email: field("contact email", v.nullable(v.string())),
      }),
    ),
  }),
);

/** GET /api/capabilities (core's CapabilitiesDocument). */
export const CapabilitiesSchema = named(
  "Capabilities",
  v.object({
    name: about("The service's name.", v.string()),
    version: about(
      "The version of the interface served (semver), as in the OpenAPI document's info.",
      v.string(),
    ),
    security_mode: about(
      "strict (default: the documented gaps closed) or legacy (interface 1.0.2's open endpoints).",
      v.picklist(["strict", "legacy"]),
    ),
    capabilities: about(
      "Every operation of the JSON API, in the registry's order.",
      v.array(
        v.object({
          name: about("The operation's name; also its OpenAPI operationId.", v.string()),
          method: about("The HTTP method.", v.picklist(["GET", "POST", "PUT", "PATCH", "DELETE"])),
          path: about("The path, with {param} placeholders.", v.string()),
          auth: about(
            "Who may call it in this mode: public, key-or-jwt (X-API-Key or Bearer), jwt (Bearer only) or admin (an admin's Bearer).",
            v.picklist(["public", "key-or-jwt", "jwt", "admin"]),
          ),
          description: about("What it does.", v.string()),
        }),
      ),
    ),
    categories: about(
      "The ten service categories.",
      v.array(
        v.object({
          value: about("The value listings carry and filters take.", v.string()),
          label: about("A name for people.", v.string()),
          display_slug: about("A short slug for URLs and menus.", v.string()),
        }),
      ),
    ),
    authentication: about(
      "The accepted credentials.",
      v.array(
        v.object({
          type: about("api_key or jwt.", v.string()),
          header: about("The request header that carries it.", v.string()),
          format: about("What the header's value looks like.", v.string()),
          how_obtained: about("How to get one, and what it allows.", v.string()),
        }),
      ),
    ),
    known_gaps: about(
      "Security gaps of interface 1.0.2 open in this mode, in words; empty in strict mode.",
      v.array(v.string()),
    ),
    changes_from_1_0_2: about("How this server differs from interface 1.0.2, in words.", v.array(v.string())),
    limits: about(
      "Limits in force by name: numbers are counts or bytes as the name says (json_body_max_bytes, listing_page_max, slots_business); strings are durations in words (jwt_lifetime).",
      v.record(v.string(), v.union([v.string(), v.number()])),
    ),
  }),
);

/** {success: true}. */
export const SuccessSchema = v.object({ success: SUCCESS });

/** A page of `key` items with count and next_cursor. */
export function pageOf<K extends string, S extends v.GenericSchema>(key: K, item: S, next = NEXT_CURSOR) {
  const list = about(`The ${key} of this page; empty when there are none.`, v.array(item));
  return v.object({
    ...({ [key]: list } as { [P in K]: typeof list }),
    count: COUNT,
    next_cursor: next,
  });
}

/** POST /api/listings. */
export const CreatedListingAnswer = v.object({
  message: about('Always "Listing created".', v.string()),
  listing: referenced("The new listing as stored: its id, defaults and status.", ListingSchema),
});

/** GET and PATCH /api/listings/{id}. */
export const ListingAnswer = v.object({
  listing: referenced("The listing as stored now, with its effective status.", ListingSchema),
});

/** Sign-up, address verification and display-name change. */
export const UserAnswer = v.object({
  success: SUCCESS,
  user: referenced("The account as it is now.", UserSchema),
});

/** POST /api/auth/login. */
export const LogInAnswer = v.object({
  success: SUCCESS,
  user: referenced("The account that logged in.", UserSchema),
  token: about("A JWT for `Authorization: Bearer <token>`, valid 7 days.", v.string()),
});

/** GET /api/auth/me. */
export const MeAnswer = v.object({
  user: about("The calling user (JWT or API key); null when no credential was sent.", v.nullable(UserSchema)),
});

/** POST /api/keys. */
export const CreatedApiKeyAnswer = v.object({
  key: referenced("The new key, its value included: the only time the value is shown.", CreatedApiKeySchema),
  warning: v.optional(
    about(
      "Present when the caller is an admin: what the key can do beyond the caller's own data.",
      v.string(),
    ),
  ),
});

/** GET /api/messages. */
export const MessagePage = v.object({
  messages: about(
    "The messages of this page, newest first; empty when there are none.",
    v.array(MessageSchema),
  ),
  count: COUNT,
  type: about(
    "The direction listed: received (to the user) or sent (by the user).",
    v.picklist(["received", "sent"]),
  ),
  next_cursor: NEXT_CURSOR,
});

/** POST /api/messages. */
export const SentMessageAnswer = v.object({
  message: about('Always "Message sent".', v.string()),
  data: referenced("The message as stored.", MessageSchema),
});

/** POST /api/profiles/sync. */
export const ProfileAnswer = v.object({
  success: SUCCESS,
  profile: referenced("The profile as it is now.", ProfileSchema),
});

/** GET /api/profiles/admin. */
export const AdminCheckAnswer = v.object({
  is_admin: about("Whether the user is an administrator; false for an unknown user too.", v.boolean()),
});

/** GET /healthz. */
export const HealthSchema = v.object({
  status: about('Always "ok": the process answers (its dependencies are not checked).', v.literal("ok")),
});

/** GET /readyz. */
export const ReadySchema = v.object({
  status: about('Always "ready": the database answers; otherwise the answer is 503.', v.literal("ready")),
});
