import type { Category } from "@psm/core";
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { CATEGORY_CHECK_VALUES, instant, oneOf, users } from "./schema.js";

/**
 * Saved searches, the matches recorded for them, and the matcher's cursor over the event log.
 * `match_key` is core's savedSearchMatchKey: matching looks up the keys a new listing holds in its
 * index, so the cost per listing does not grow with the number of saved searches.
 */
export const savedSearches = pgTable(
  "saved_searches",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    q: text("q"),
    search: text("search"),
    category: text("category").$type<Category>(),
    minPrice: doublePrecision("min_price"),
    maxPrice: doublePrecision("max_price"),
    matchKey: text("match_key").notNull(),
    // The seq of the event log its mail got to: its unmailed matches are its owner's
    // saved_search.matched events after it. Set to the log's end when saved.
    mailedSeq: bigint("mailed_seq", { mode: "number" }).notNull().default(0),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    // A user's list (newest first), the per-user limit's count, and the user foreign key's cascade.
    index("saved_searches_user_id_id_idx").on(t.userId, t.id.desc().nullsFirst()),
    // Matching's candidate lookup.
    index("saved_searches_match_key_idx").on(t.matchKey),
    check(
      "saved_searches_category_check",
      sql`${t.category} IS NULL OR ${oneOf(sql`${t.category}`, CATEGORY_CHECK_VALUES)}`,
    ),
  ],
);

/**
 * A listing told to a saved search's owner: at most once per pair. Keyed by listing first: listing
 * ids grow with time (UUIDv7), so a round's matches are written at the right edge of the index
 * rather than all over it. No foreign key: a deleted saved search's rows stay, never told again, as
 * a cascade would need an index by saved search, written at random again.
 */
export const savedSearchMatches = pgTable(
  "saved_search_matches",
  {
    savedSearchId: uuid("saved_search_id").notNull(),
    listingId: uuid("listing_id").notNull(),
    matchedAt: instant("matched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.savedSearchId] })],
);

/**
 * The matcher's cursor, one row (id 1, seeded by the migration at the event counter's last seq, as
 * webhook_fanout): the seq of the last event matched against saved searches.
 */
export const savedSearchCursor = pgTable(
  "saved_search_cursor",
  {
    id: integer("id").primaryKey(),
    lastSeq: bigint("last_seq", { mode: "number" }).notNull(),
  },
  (t) => [check("saved_search_cursor_one_row_check", sql`${t.id} = 1`)],
);
