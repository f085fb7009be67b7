import type {
  AccountType,
  Category,
  MailJobStatus,
  MailKind,
  MessageMail,
  PriceUnit,
  SavedSearchMail,
  Scope,
  StoredListingStatus,
} from "@psm/core";
import { type SQL, sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The category values the CHECK constraint allows. Written out rather than
 * imported so drizzle-kit loads this file without core's runtime; a test
 * keeps it equal to core's CATEGORY_VALUES (a new category needs a migration).
 */
export const CATEGORY_CHECK_VALUES = [
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

/**
 * Returns `values` as given, and compiles only when they name every member of `T` (`satisfies`
 * alone catches a wrong value, not a missing one): a value added to core's union fails here until
 * its CHECK, and so its migration, follows.
 */
export function everyOne<T extends string>() {
  return <const V extends readonly [T, ...T[]]>(
    values: V & ([Exclude<T, V[number]>] extends [never] ? unknown : { missing: Exclude<T, V[number]> }),
  ): V => values;
}

/** The mail kinds the CHECK constraint allows: every MailKind, or this fails to compile. */
export const MAIL_KIND_CHECK_VALUES = everyOne<MailKind>()([
  "password_reset",
  "email_verification",
  "webhook_disabled",
  "message_received",
  "saved_search_matched",
]);

/** Notification settings the CHECK constraints allow: every choice core offers, or this fails to compile. */
export const MESSAGE_MAIL_CHECK_VALUES = everyOne<MessageMail>()(["instant", "off"]);
export const SAVED_SEARCH_MAIL_CHECK_VALUES = everyOne<SavedSearchMail>()(["instant", "daily", "off"]);

/** UTC instants with millisecond precision, read and written as Dates. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

/** `column IN ('a', 'b')` from a fixed list of values known at build time. */
export function oneOf(column: SQL, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", "))})`;
}

/** Accounts and profiles; emails are stored trimmed and lower-cased by core. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey(),
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    isAdmin: boolean("is_admin").notNull().default(false),
    accountType: text("account_type").$type<AccountType>().notNull(),
    passwordHash: text("password_hash"),
    tokenVersion: integer("token_version").notNull().default(0),
    // When the address was first proven; null until then (and for accounts made before 1.2.0).
    emailVerifiedAt: instant("email_verified_at"),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    // lower() as well, so an address written by another tool in mixed case still collides.
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    check("users_account_type_check", oneOf(sql`${t.accountType}`, ["personal", "business"])),
  ],
);

// Indexes that serve `ORDER BY id DESC` say `id DESC NULLS FIRST`: that is what
// ORDER BY id DESC means, and Drizzle's plain desc() writes NULLS LAST, an
// order the planner cannot use for it (it would sort instead).

/** Service listings. `title_folded` is the title as foldSearchText folds it, which search matches. */
export const listings = pgTable(
  "listings",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    // Folded by the repository (core's foldSearchText, full Unicode) rather than
    // by lower(), whose folding depends on the database's ctype (ASCII-only under "C").
    titleFolded: text("title_folded").notNull(),
    description: text("description").notNull(),
    price: doublePrecision("price"),
    priceUnit: text("price_unit").$type<PriceUnit>().notNull().default("fixed"),
    category: text("category").$type<Category>().notNull(),
    condition: text("condition").notNull(),
    images: jsonb("images").$type<string[]>().notNull(),
    structuredData: jsonb("structured_data").$type<Record<string, unknown>>(),
    status: text("status").$type<StoredListingStatus>().notNull(),
    contactEmail: text("contact_email"),
    expiresAt: instant("expires_at"),
    views: integer("views").notNull().default(0),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    // Default page: active listings newest first, in an index of their own (and
    // paused ones in theirs): keyed by id, with expires_at and title_folded, and
    // the range a search pins status to (listing-search-shape.ts) as predicate.
    // Why: DESIGN.md "Status indexes".
    index("listings_active_id_idx")
      .on(t.id.desc().nullsLast(), t.expiresAt, t.titleFolded)
      .where(sql`${t.status} between 'active' and 'active'`),
    index("listings_paused_id_idx")
      .on(t.id.desc().nullsLast(), t.expiresAt, t.titleFolded)
      .where(sql`${t.status} between 'paused' and 'paused'`),
    index("listings_category_status_id_idx").on(t.category, t.status, t.id.desc().nullsFirst()),
    // Author pages, slot counts (status and expiry in the index: no heap visit
    // for them when the page is all-visible), and the user foreign key's cascade.
    index("listings_user_id_idx").on(t.userId, t.id.desc().nullsFirst(), t.status, t.expiresAt),
    // Substring search; pg_trgm is created by the preceding custom migration.
    // No fast-update pending list: every search would scan it linearly until a
    // vacuum merged it, so inserts pay for the index at once instead.
    index("listings_title_trgm_idx")
      .using("gin", t.titleFolded.op("gin_trgm_ops"))
      .with({ fastupdate: false }),
    // Search terms without a trigram: the 1- and 2-character substrings of the
    // folded title and its 3-character ones that pg_trgm leaves out (those with
    // a character other than a-z or 0-9). psm_title_grams is created by the
    // migration that made this index (0005_title_grams); an index on it rather
    // than a stored column keeps the rows as narrow as they were. Why a short
    // pending list: DESIGN.md "The grams index's pending list".
    index("listings_title_grams_idx")
      .using("gin", sql`psm_title_grams(${t.titleFolded})`)
      .with({ fastupdate: true, gin_pending_list_limit: 256 }),
    check("listings_category_check", oneOf(sql`${t.category}`, CATEGORY_CHECK_VALUES)),
    check("listings_status_check", oneOf(sql`${t.status}`, ["active", "paused"])),
    check(
      "listings_price_unit_check",
      oneOf(sql`${t.priceUnit}`, ["fixed", "hour", "day", "month"] satisfies PriceUnit[]),
    ),
    check("listings_images_check", sql`jsonb_typeof(${t.images}) = 'array'`),
    check("listings_structured_data_check", sql`jsonb_typeof(${t.structuredData}) = 'object'`),
    check("listings_views_check", sql`${t.views} >= 0`),
  ],
);

/** API keys; only the SHA-256 digest of the value is stored. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    // The three below are NULL for keys made before 1.3 (migration 0009).
    prefix: text("prefix"),
    // In the order the key was given them; NULL: unrestricted.
    scopes: text("scopes").array().$type<readonly Scope[]>(),
    expiresAt: instant("expires_at"),
    isActive: boolean("is_active").notNull().default(true),
    lastUsed: instant("last_used"),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_idx").on(t.keyHash),
    index("api_keys_user_id_idx").on(t.userId, t.id.desc().nullsFirst()),
  ],
);

/** Messages about a listing. No foreign keys: they outlive the listing and either party. */
export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey(),
    listingId: uuid("listing_id").notNull(),
    senderId: uuid("sender_id").notNull(),
    receiverId: uuid("receiver_id").notNull(),
    content: text("content").notNull(),
    isAgent: boolean("is_agent").notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    index("messages_receiver_id_idx").on(t.receiverId, t.id.desc().nullsFirst()),
    index("messages_sender_id_idx").on(t.senderId, t.id.desc().nullsFirst()),
    // latestBetween: one conversation's newest message, one seek (DESIGN.md "Notifications").
    index("messages_receiver_id_sender_id_listing_id_idx").on(
      t.receiverId,
      t.senderId,
      t.listingId,
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * A table of single-use mailed tokens by digest; `used_at` makes them single-use.
 * One table per purpose, so a token of one kind never passes for the other.
 */
function tokenTable(name: string) {
  return pgTable(
    name,
    {
      tokenHash: text("token_hash").primaryKey(),
      userId: uuid("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      expiresAt: instant("expires_at").notNull(),
      createdAt: instant("created_at").notNull(),
      usedAt: instant("used_at"),
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

/** The durable mail queue shared by every server process. */
export const mailJobs = pgTable(
  "mail_jobs",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<MailKind>().notNull(),
    // What the mail is about (a conversation key); NULL for kinds about nothing but their user.
    ref: text("ref"),
    status: text("status").$type<MailJobStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: instant("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: instant("created_at").notNull(),
    sentAt: instant("sent_at"),
  },
  (t) => [
    index("mail_jobs_status_next_attempt_at_idx").on(t.status, t.nextAttemptAt),
    // Per-address mail limit (countSince) and the user foreign key's cascade.
    index("mail_jobs_user_id_kind_created_at_idx").on(t.userId, t.kind, t.createdAt),
    // enqueueCoalesced: the last job created about one ref, one seek.
    index("mail_jobs_user_id_kind_ref_created_at_idx").on(t.userId, t.kind, t.ref, t.createdAt),
    // At most one pending job per user, kind and ref: enqueueCoalesced's ON CONFLICT arbiter, so
    // racing calls store one (NULL refs never conflict). DESIGN.md "Notifications".
    uniqueIndex("mail_jobs_pending_ref_idx").on(t.userId, t.kind, t.ref).where(sql`${t.status} = 'pending'`),
    check("mail_jobs_kind_check", oneOf(sql`${t.kind}`, MAIL_KIND_CHECK_VALUES)),
    check("mail_jobs_status_check", oneOf(sql`${t.status}`, ["pending", "sent", "failed"])),
  ],
);
