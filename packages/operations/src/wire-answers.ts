import { CATEGORY_VALUES, FACET_CAP } from "@psm/core";
import * as v from "valibot";
import {
  CreatedApiKeySchema,
  EventSchema,
  ListingSchema,
  MessageSchema,
  ProfileSchema,
  UserSchema,
} from "./wire-entities.js";
import { about, COUNT, NEXT_CURSOR, referenced, SEARCH_NEXT_CURSOR, SUCCESS } from "./wire-fields.js";

/** The bodies of the answers (wire-schemas.ts), built of the entities. */

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

/** GET /api/listings: a page of listings, with the counts per category when asked (facets=category). */
export const ListingPage = v.object({
  ...pageOf("items", ListingSchema, SEARCH_NEXT_CURSOR).entries,
  facets: v.optional(
    about(
      "Only with facets=category.",
      v.object({
        category: about(
          `Matches per category value (${CATEGORY_VALUES.length} values; those with none are left out), over every criterion but category itself; a count above ${FACET_CAP} is reported as ${FACET_CAP}.`,
          v.record(v.picklist(CATEGORY_VALUES), v.pipe(v.number(), v.integer(), v.minValue(1))),
        ),
      }),
    ),
  ),
  facets_capped: v.optional(
    about(
      `Only with facets=category: true when a count was cut at ${FACET_CAP}, or when counting stopped at the storage's bound on its work (then a count may be lower than the whole match set's); false when every count is exact.`,
      v.boolean(),
    ),
  ),
});

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
/** GET /api/events. */
export const EventPage = v.object({
  events: about(
    "The caller's events after `after`, oldest first; empty when there are none yet.",
    v.array(EventSchema),
  ),
  count: COUNT,
});

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
