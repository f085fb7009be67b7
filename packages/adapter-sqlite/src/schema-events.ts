import type { EventType } from "@psm/core";
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DELIVERY_STATE_CHECK, MESSAGE_MAIL_CHECK, oneOf, SAVED_SEARCH_MAIL_CHECK, users } from "./schema.js";

/**
 * The tables of what reaches users outside a request: the event log (a transactional outbox),
 * webhooks and their deliveries, notification settings, and the cursors that read the log.
 */

/**
 * The event log, a transactional outbox: each row is written in the transaction of the change it
 * tells of. `seq` is the rowid, given at the insert; SQLite has one writer at a time, so seqs
 * follow commit order. AUTOINCREMENT rather than a plain rowid: a sweep that removes the newest
 * rows must not let their seqs be given again, or a reader past them would skip the new ones.
 * `type` has no CHECK: a new event type is then not a rebuild of the whole log.
 */
export const events = sqliteTable(
  "events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    type: text("type").$type<EventType>().notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    occurredAt: integer("occurred_at", { mode: "timestamp_ms" }).notNull(),
    data: text("data").notNull(), // JSON object of ids
  },
  (t) => [
    uniqueIndex("events_id_unique").on(t.id),
    // listFor reads one user's events in seq order from it, with no sort; also the users FK cascade.
    index("events_user_id_seq_idx").on(t.userId, t.seq),
    // The retention sweep.
    index("events_occurred_at_idx").on(t.occurredAt),
  ],
);

/** A webhook secret as stored in `webhooks.secrets` (ms since epoch, like every instant here). */
export interface StoredSecret {
  value: string;
  expires_at: number | null;
}

/** Webhooks: a user's URLs that receive their events; they go with their user. */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    types: text("types", { mode: "json" }).$type<readonly EventType[]>().notNull(),
    description: text("description").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    disabledReason: text("disabled_reason"),
    // Newest first; the relay signs with them, so they are kept as given (not hashed).
    secrets: text("secrets", { mode: "json" }).$type<readonly StoredSecret[]>().notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  // A user's list (newest first), the per-user limit's count, the fan-out's lookup by owner, and the users FK cascade.
  (t) => [index("webhooks_user_id_id_idx").on(t.userId, t.id)],
);

/** One event on its way to one webhook; deliveries go with their webhook. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    type: text("type").$type<EventType>().notNull(),
    payload: text("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    state: text("state", { enum: DELIVERY_STATE_CHECK }).notNull(),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    // claimDue and backlog: pending deliveries by due time, then id; settled ones stay out of it.
    index("webhook_deliveries_pending_due_idx").on(t.nextAttemptAt, t.id).where(sql`${t.state} = 'pending'`),
    // A webhook's deliveries, newest first, and the webhooks FK cascade.
    index("webhook_deliveries_webhook_id_id_idx").on(t.webhookId, t.id),
    // The retention sweep.
    index("webhook_deliveries_created_at_idx").on(t.createdAt),
    check("webhook_deliveries_state_check", oneOf(t.state, DELIVERY_STATE_CHECK)),
    check("webhook_deliveries_attempts_check", sql`${t.attempts} >= 0`),
  ],
);

/**
 * The fan-out cursor's one row (id 1, seeded by the migration at the event log's last seq): the
 * seq of the last event made into deliveries.
 */
export const webhookFanout = sqliteTable(
  "webhook_fanout",
  {
    id: integer("id").primaryKey(),
    lastSeq: integer("last_seq").notNull(),
  },
  (t) => [check("webhook_fanout_one_row_check", sql`${t.id} = 1`)],
);

/** A user's notification settings; no row means core's defaults. They go with their user. */
export const notificationSettings = sqliteTable(
  "notification_settings",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    messageMail: text("message_mail", { enum: MESSAGE_MAIL_CHECK }).notNull(),
    savedSearchMail: text("saved_search_mail", { enum: SAVED_SEARCH_MAIL_CHECK }).notNull(),
  },
  (t) => [
    check("notification_settings_message_mail_check", oneOf(t.messageMail, MESSAGE_MAIL_CHECK)),
    check("notification_settings_saved_search_mail_check", oneOf(t.savedSearchMail, SAVED_SEARCH_MAIL_CHECK)),
  ],
);

/**
 * The notifier's cursor, one row (id 1, seeded by the migration at the event log's last seq, as
 * webhook_fanout): the seq of the last event turned into notification mail.
 */
export const notificationCursor = sqliteTable(
  "notification_cursor",
  {
    id: integer("id").primaryKey(),
    lastSeq: integer("last_seq").notNull(),
  },
  (t) => [check("notification_cursor_one_row_check", sql`${t.id} = 1`)],
);
