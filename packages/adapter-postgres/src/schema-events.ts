import type { DeliveryState, EventType, MessageMail, SavedSearchMail } from "@psm/core";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  instant,
  MESSAGE_MAIL_CHECK_VALUES,
  oneOf,
  SAVED_SEARCH_MAIL_CHECK_VALUES,
  users,
} from "./schema.js";

// The outbox tables written on the request path and drained off it (the event log, the reset
// requests waiting for a mail round, the webhooks the log fans out to, and the notification
// settings and cursor that turn it into mail), beside schema.ts
// (drizzle.config.ts reads both).

/**
 * The event types the CHECK constraint allows. Written out, as CATEGORY_CHECK_VALUES is (schema.ts),
 * and kept equal to core's EVENT_TYPES by a test; a new type needs a migration.
 */
export const EVENT_TYPE_CHECK_VALUES = [
  "listing.created",
  "listing.updated",
  "listing.deleted",
  "message.received",
  "saved_search.matched",
  "webhook.test",
] as const satisfies readonly EventType[];

/**
 * The event log, a transactional outbox: each row is written in the transaction of the change it
 * tells of. `seq` comes from `event_sequence`, not from a sequence, so seqs become visible in
 * commit order (DESIGN.md "Event log"). Events go with their user (the foreign key's cascade).
 */
export const events = pgTable(
  "events",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull(),
    type: text("type").$type<EventType>().notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    occurredAt: instant("occurred_at").notNull(),
    data: jsonb("data").$type<Readonly<Record<string, string>>>().notNull(),
  },
  (t) => [
    uniqueIndex("events_id_idx").on(t.id),
    // A user's reads (seq after a cursor, in order) and the user foreign key's cascade.
    index("events_user_id_seq_idx").on(t.userId, t.seq),
    // The retention sweep.
    index("events_occurred_at_idx").on(t.occurredAt),
    check("events_type_check", oneOf(sql`${t.type}`, EVENT_TYPE_CHECK_VALUES)),
    check("events_data_check", sql`jsonb_typeof(${t.data}) = 'object'`),
  ],
);

/**
 * The event log's one counter row (id 1, seeded by the migration): the last seq given. A writer
 * takes its seqs by updating it as its transaction's last statement, and holds the row until it
 * commits, so the next writer's seqs come after this one's are visible (DESIGN.md "Event log").
 */
export const eventSequence = pgTable(
  "event_sequence",
  {
    id: integer("id").primaryKey(),
    last: bigint("last", { mode: "number" }).notNull(),
  },
  (t) => [check("event_sequence_one_row_check", sql`${t.id} = 1`)],
);

/**
 * Reset requests waiting for a mail round: stored before the request is answered, with no lookup
 * of the address (no foreign key: it may have no account), and deleted by the round's transaction
 * that queues their mail, so a round that fails puts them back.
 */
export const resetRequests = pgTable(
  "reset_requests",
  {
    id: uuid("id").primaryKey(),
    email: text("email").notNull(),
    requestedAt: instant("requested_at").notNull(),
  },
  // The rounds take them oldest first, with no sort step.
  (t) => [index("reset_requests_requested_at_id_idx").on(t.requestedAt, t.id)],
);

/** A webhook secret as stored in `webhooks.secrets` (an ISO instant, or null while newest). */
export interface StoredSecret {
  value: string;
  expires_at: string | null;
}

/** Webhooks: a user's URLs that receive their events; they go with their user. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    types: text("types").array().$type<readonly EventType[]>().notNull(),
    description: text("description").notNull(),
    enabled: boolean("enabled").notNull(),
    disabledReason: text("disabled_reason"),
    // Newest first; the relay signs with them, so they are kept as given (not hashed).
    secrets: jsonb("secrets").$type<readonly StoredSecret[]>().notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    // A user's list (newest first), the per-user limit's count, the fan-out's lookup by owner,
    // and the user foreign key's cascade.
    index("webhooks_user_id_id_idx").on(t.userId, t.id.desc().nullsFirst()),
    check("webhooks_secrets_check", sql`jsonb_typeof(${t.secrets}) = 'array'`),
  ],
);

const DELIVERY_STATE_CHECK_VALUES = [
  "pending",
  "succeeded",
  "failed",
] as const satisfies readonly DeliveryState[];

/** One event on its way to one webhook; deliveries go with their webhook. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    type: text("type").$type<EventType>().notNull(),
    payload: text("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    state: text("state").$type<DeliveryState>().notNull(),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    nextAttemptAt: instant("next_attempt_at"),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    // claimDue and backlog: pending deliveries by due time, then id; settled ones stay out of it.
    index("webhook_deliveries_pending_due_idx").on(t.nextAttemptAt, t.id).where(sql`${t.state} = 'pending'`),
    // A webhook's deliveries, newest first, and the webhook foreign key's cascade.
    index("webhook_deliveries_webhook_id_id_idx").on(t.webhookId, t.id.desc().nullsFirst()),
    // The retention sweep.
    index("webhook_deliveries_created_at_idx").on(t.createdAt),
    check("webhook_deliveries_state_check", oneOf(sql`${t.state}`, DELIVERY_STATE_CHECK_VALUES)),
    check("webhook_deliveries_attempts_check", sql`${t.attempts} >= 0`),
  ],
);

/**
 * The fan-out cursor's one row (id 1, seeded by the migration at the event counter's last seq):
 * the seq of the last event made into deliveries. A fan-out locks it (SKIP LOCKED) for its whole
 * transaction, so one process fans out at a time and the others pass.
 */
export const webhookFanout = pgTable(
  "webhook_fanout",
  {
    id: integer("id").primaryKey(),
    lastSeq: bigint("last_seq", { mode: "number" }).notNull(),
  },
  (t) => [check("webhook_fanout_one_row_check", sql`${t.id} = 1`)],
);

/** A user's notification settings; no row means core's defaults. They go with their user. */
export const notificationSettings = pgTable(
  "notification_settings",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    messageMail: text("message_mail").$type<MessageMail>().notNull(),
    savedSearchMail: text("saved_search_mail").$type<SavedSearchMail>().notNull(),
  },
  (t) => [
    check(
      "notification_settings_message_mail_check",
      oneOf(sql`${t.messageMail}`, MESSAGE_MAIL_CHECK_VALUES),
    ),
    check(
      "notification_settings_saved_search_mail_check",
      oneOf(sql`${t.savedSearchMail}`, SAVED_SEARCH_MAIL_CHECK_VALUES),
    ),
  ],
);

/**
 * The notifier's cursor, one row (id 1, seeded by the migration at the event counter's last seq, as
 * webhook_fanout): the seq of the last event turned into notification mail. A round locks it (SKIP
 * LOCKED) for its whole transaction, so one process notifies at a time and the others pass.
 */
export const notificationCursor = pgTable(
  "notification_cursor",
  {
    id: integer("id").primaryKey(),
    lastSeq: bigint("last_seq", { mode: "number" }).notNull(),
  },
  (t) => [check("notification_cursor_one_row_check", sql`${t.id} = 1`)],
);
