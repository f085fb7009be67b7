import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { instant, users } from "./schema.js";

/** The tables of a caller between requests: browser sessions and idempotency keys. */

/** Browser sessions of the web pages, by token digest; the user's token version at sign-in ends them at a password change. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenVersion: integer("token_version").notNull(),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
  },
  (t) => [
    index("sessions_user_id_idx").on(t.userId),
    // The sweep of expired sessions.
    index("sessions_expires_at_idx").on(t.expiresAt),
  ],
);

/**
 * Idempotency keys: one row per (caller, operation, key) digest. A running
 * claim has no result; the result is stored in the transaction of its write.
 * `status` and `body` are 1.2's answer, unused now (migration 0008 copied it
 * into `result`): kept so a 1.2 process still running during the upgrade, or
 * a rollback to 1.2, finds its columns. A later release drops them.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: text("id").primaryKey(),
    fingerprint: text("fingerprint").notNull(),
    owner: text("owner").notNull(),
    leaseUntil: instant("lease_until").notNull(),
    expiresAt: instant("expires_at").notNull(),
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
