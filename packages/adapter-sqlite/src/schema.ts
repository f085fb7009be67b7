import type {
  AccountType,
  Category,
  DeliveryState,
  MailJobStatus,
  MailKind,
  MessageMail,
  PriceUnit,
  SavedSearchMail,
  Scope,
  StoredListingStatus,
} from "@psm/core";
import { type SQL, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// The allowed values are written out here rather than imported from core at run
// time: drizzle-kit loads this file without the "psm-source" condition, and a
// migration freezes the list anyway (a new category needs a new migration).
// `satisfies` ties each list to core's union; schema.test.ts checks the reverse.
/** Category values the CHECK constraint accepts. */
export const CATEGORY_CHECK = [
  "strategic-consulting",
  "software-development",
  "digital-marketing",
  "ux-ui-design",
  "staffing-hr",
  "data-analytics",
  "cybersecurity",
  "artificial-intelligence",
  "legal-consulting",
  "financial-services",
] as const satisfies readonly Category[];
const LISTING_STATUS_CHECK = ["active", "paused"] as const satisfies readonly StoredListingStatus[];
const ACCOUNT_TYPE_CHECK = ["personal", "business"] as const satisfies readonly AccountType[];
/** Mail kinds the CHECK constraint accepts: every MailKind, or this fails to compile. */
export const MAIL_KIND_CHECK = everyOne<MailKind>()([
  "password_reset",
  "email_verification",
  "webhook_disabled",
  "message_received",
  "saved_search_matched",
]);
/** Notification settings the CHECK constraints accept: every choice core offers, or this fails to compile. */
export const MESSAGE_MAIL_CHECK = everyOne<MessageMail>()(["instant", "off"]);
export const SAVED_SEARCH_MAIL_CHECK = everyOne<SavedSearchMail>()(["instant", "daily", "off"]);
export const DELIVERY_STATE_CHECK = [
  "pending",
  "succeeded",
  "failed",
] as const satisfies readonly DeliveryState[];
/** Price units the CHECK constraint accepts: every unit core offers, or this fails to compile. */
export const PRICE_UNIT_CHECK = everyOne<PriceUnit>()(["fixed", "hour", "day", "month"]);
const MAIL_STATUS_CHECK = ["pending", "sent", "failed"] as const satisfies readonly MailJobStatus[];

/**
 * Returns `values` as given, and compiles only when they name every member of `T` (`satisfies`
 * alone catches a wrong value, not a missing one): a kind added to core fails here until its
 * CHECK, and so its migration, follows.
 */
export function everyOne<T extends string>() {
  return <const V extends readonly [T, ...T[]]>(
    values: V & ([Exclude<T, V[number]>] extends [never] ? unknown : { missing: Exclude<T, V[number]> }),
  ): V => values;
}

/** A CHECK that `column` holds one of `values`. */
export function oneOf(column: AnySQLiteColumn, values: readonly string[]): SQL {
  return sql`${column} IN (${sql.raw(values.map((v) => `'${v}'`).join(", "))})`;
}

/** Users (profiles are users). Emails are stored trimmed and lower-cased by the repository. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    // Lower-cased with JS toLowerCase before every write and lookup, so the plain
    // unique index is case-insensitive for all letters (NOCASE folds ASCII only).
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    accountType: text("account_type", { enum: ACCOUNT_TYPE_CHECK }).notNull(),
    passwordHash: text("password_hash"),
    tokenVersion: integer("token_version").notNull().default(0),
    // When the address was first proven; NULL until then (and for accounts made before 1.2.0).
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    check("users_account_type_check", oneOf(t.accountType, ACCOUNT_TYPE_CHECK)),
  ],
);

/**
 * Listings. `seq` is the rowid, assigned by the repository in id order; the FTS
 * index uses -seq as its rowid, so its hits in stored order are newest first.
 */
export const listings = sqliteTable(
  "listings",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull(),
    title: text("title").notNull(),
    // The title as core's foldSearchText folds it: the FTS5 trigram index and the
    // short-term scan read this, because SQLite's lower() and NOCASE fold ASCII only.
    titleFolded: text("title_folded").notNull(),
    description: text("description").notNull(),
    price: real("price"),
    priceUnit: text("price_unit", { enum: PRICE_UNIT_CHECK }).notNull().default("fixed"),
    category: text("category", { enum: CATEGORY_CHECK }).notNull(),
    condition: text("condition").notNull(),
    images: text("images").notNull(), // JSON array of URLs
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    structuredData: text("structured_data"), // JSON object or NULL
    status: text("status", { enum: LISTING_STATUS_CHECK }).notNull(),
    contactEmail: text("contact_email"),
    expiresAt: integer("expires_at"), // ms since epoch, UTC
    views: integer("views").notNull().default(0),
    createdAt: integer("created_at").notNull(), // ms since epoch, UTC
  },
  (t) => [
    uniqueIndex("listings_id_unique").on(t.id),
    // Default page: active listings newest first.
    index("listings_status_id_idx").on(t.status, t.id),
    // Category pages.
    index("listings_category_status_id_idx").on(t.category, t.status, t.id),
    // Author pages and the users FK cascade.
    index("listings_user_id_id_idx").on(t.userId, t.id),
    // Slot counts, read from the index alone: every create and reactivation counts the author's active listings.
    index("listings_user_id_status_expires_at_idx").on(t.userId, t.status, t.expiresAt),
    // Price sorts (migrations/0009_fulltext.sql, with the full-text index).
    index("listings_status_price_id_idx").on(t.status, t.price, t.id),
    index("listings_category_status_price_id_idx").on(t.category, t.status, t.price, t.id),
    check("listings_category_check", oneOf(t.category, CATEGORY_CHECK)),
    check("listings_status_check", oneOf(t.status, LISTING_STATUS_CHECK)),
    check("listings_views_check", sql`${t.views} >= 0`),
    check("listings_price_unit_check", oneOf(t.priceUnit, PRICE_UNIT_CHECK)),
    check("listings_price_check", sql`${t.price} IS NULL OR ${t.price} >= 0`),
  ],
);

/** API keys: only the SHA-256 digest of the key value is stored. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    // The three below are NULL for keys made before 1.3 (migration 0006).
    prefix: text("prefix"),
    // A JSON array, in the order the key was given them; NULL: unrestricted.
    scopes: text("scopes", { mode: "json" }).$type<readonly Scope[]>(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    lastUsed: integer("last_used", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_unique").on(t.keyHash),
    index("api_keys_user_id_id_idx").on(t.userId, t.id),
  ],
);

/** Messages. No foreign keys: a message outlives its listing and both users. */
export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id").notNull(),
    senderId: text("sender_id").notNull(),
    receiverId: text("receiver_id").notNull(),
    content: text("content").notNull(),
    isAgent: integer("is_agent", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("messages_receiver_id_id_idx").on(t.receiverId, t.id),
    index("messages_sender_id_id_idx").on(t.senderId, t.id),
    // latestBetween: one conversation's newest message, one seek (DESIGN.md "Notifications").
    index("messages_receiver_id_sender_id_listing_id_id_idx").on(t.receiverId, t.senderId, t.listingId, t.id),
  ],
);

/**
 * A table of single-use mailed tokens, by digest; `used_at` makes consumption
 * single-use. One table per purpose, so a token of one kind never passes for the other.
 */
function tokenTable(name: string) {
  return sqliteTable(
    name,
    {
      tokenHash: text("token_hash").primaryKey(),
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
      createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
      usedAt: integer("used_at", { mode: "timestamp_ms" }),
    },
    (t) => [index(`${name}_user_id_idx`).on(t.userId)],
  );
}

/** A table made by tokenTable. */
export type TokenTable = ReturnType<typeof tokenTable>;

/** Password-reset tokens. */
export const resetTokens = tokenTable("reset_tokens");

/** Address-verification tokens (the link mailed at sign-up). */
export const emailVerificationTokens = tokenTable("email_verification_tokens");

/** The durable mail queue. */
export const mailJobs = sqliteTable(
  "mail_jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MAIL_KIND_CHECK }).notNull(),
    // What the mail is about (a conversation key); NULL for kinds about nothing but their user.
    ref: text("ref"),
    status: text("status", { enum: MAIL_STATUS_CHECK }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // claimDue: pending jobs by due time, then id, with no sort step.
    index("mail_jobs_status_next_attempt_at_id_idx").on(t.status, t.nextAttemptAt, t.id),
    // countSince (per-address limit) and the users FK cascade.
    index("mail_jobs_user_id_kind_created_at_idx").on(t.userId, t.kind, t.createdAt),
    // enqueueCoalesced: the last job created about one ref, one seek.
    index("mail_jobs_user_id_kind_ref_created_at_idx").on(t.userId, t.kind, t.ref, t.createdAt),
    // At most one pending job per user, kind and ref: enqueueCoalesced's ON CONFLICT target
    // (NULL refs never conflict). DESIGN.md "Notifications".
    uniqueIndex("mail_jobs_pending_ref_unique")
      .on(t.userId, t.kind, t.ref)
      .where(sql`${t.status} = 'pending'`),
    check("mail_jobs_kind_check", oneOf(t.kind, MAIL_KIND_CHECK)),
    check("mail_jobs_status_check", oneOf(t.status, MAIL_STATUS_CHECK)),
    check("mail_jobs_attempts_check", sql`${t.attempts} >= 0`),
  ],
);

/**
 * Reset requests waiting for a mail round: stored before the request is answered, with no lookup
 * of the address (no foreign key: it may have no account), and removed by the round that resolves them.
 */
export const resetRequests = sqliteTable(
  "reset_requests",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    requestedAt: integer("requested_at", { mode: "timestamp_ms" }).notNull(),
  },
  // The rounds take them oldest first, with no sort step.
  (t) => [index("reset_requests_requested_at_id_idx").on(t.requestedAt, t.id)],
);
