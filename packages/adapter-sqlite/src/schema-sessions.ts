import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./schema.js";

/** The tables of a caller between requests: browser sessions and idempotency keys. */

/** Browser sessions of the web pages, by token digest; the user's token version at sign-in ends them at a password change. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenVersion: integer("token_version").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("sessions_user_id_idx").on(t.userId),
    // The sweep of expired sessions.
    index("sessions_expires_at_idx").on(t.expiresAt),
  ],
);

/**
 * Idempotency keys: one row per (caller, operation, key) digest. A running
 * claim has no result; the result is stored in the unit of work of its write.
 * `status` and `body` are 1.2's answer, unused now (migration 0005 copied it
 * into `result`): kept so a 1.2 process still running during the upgrade, or
 * a rollback to 1.2, finds its columns. A later release drops them.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    id: text("id").primaryKey(),
    fingerprint: text("fingerprint").notNull(),
    owner: text("owner").notNull(),
    leaseUntil: integer("lease_until", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    result: text("result"),
    /** A digest of the caller's scope, counted by its bound; null for claims made before 1.3's bound. */
    caller: text("caller"),
    /** The UTF-8 bytes of `result`, so a caller's total is summed from the index alone. */
    size: integer("size").notNull().default(0),
    status: integer("status"),
    body: text("body"),
  },
  (t) => [
    index("idempotency_keys_expires_at_idx").on(t.expiresAt),
    // A caller's usage (keys, bytes, first expiry) read from the index alone.
    index("idempotency_keys_caller_idx").on(t.caller, t.expiresAt, t.size),
  ],
);
