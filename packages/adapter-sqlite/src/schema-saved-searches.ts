import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CATEGORY_CHECK, oneOf, users } from "./schema.js";

/**
 * Saved searches, the matches recorded for them, and the matcher's cursor over the event log.
 * `match_key` is core's savedSearchMatchKey: matching looks up the keys a new listing holds in its
 * index, so the cost per listing does not grow with the number of saved searches.
 */
export const savedSearches = sqliteTable(
  "saved_searches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    q: text("q"),
    search: text("search"),
    category: text("category", { enum: CATEGORY_CHECK }),
    minPrice: real("min_price"),
    maxPrice: real("max_price"),
    matchKey: text("match_key").notNull(),
    // The seq of the event log its mail got to: its unmailed matches are its owner's
    // saved_search.matched events after it. Set to the log's end when saved.
    mailedSeq: integer("mailed_seq").notNull().default(0),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    // A user's list (newest first), the per-user limit's count, and the users FK cascade.
    index("saved_searches_user_id_id_idx").on(t.userId, t.id),
    // Matching's candidate lookup.
    index("saved_searches_match_key_idx").on(t.matchKey),
    check(
      "saved_searches_category_check",
      sql`${t.category} IS NULL OR ${oneOf(t.category, CATEGORY_CHECK)}`,
    ),
  ],
);

/**
 * A listing told to a saved search's owner: at most once per pair. Keyed by listing first: listing
 * ids grow with time, so a round's matches are written at the end of the b-tree rather than all over
 * it (a saved search's key would scatter them). No foreign key: a deleted saved search's rows stay,
 * never told again, as a cascade would have to walk the whole table to find them.
 */
export const savedSearchMatches = sqliteTable(
  "saved_search_matches",
  {
    savedSearchId: text("saved_search_id").notNull(),
    listingId: text("listing_id").notNull(),
    matchedAt: integer("matched_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.savedSearchId] })],
);

/**
 * The matcher's cursor, one row (id 1, seeded by the migration at the event log's last seq, as
 * webhook_fanout): the seq of the last event matched against saved searches.
 */
export const savedSearchCursor = sqliteTable(
  "saved_search_cursor",
  {
    id: integer("id").primaryKey(),
    lastSeq: integer("last_seq").notNull(),
  },
  (t) => [check("saved_search_cursor_one_row_check", sql`${t.id} = 1`)],
);
