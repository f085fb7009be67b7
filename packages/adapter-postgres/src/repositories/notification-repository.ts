import {
  DEFAULT_NOTIFICATION_SETTINGS,
  isUuid,
  MarketplaceError,
  type NotificationRepository,
} from "@psm/core";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { notificationCursor, notificationSettings } from "../schema-events.js";

/** The PostgreSQL NotificationRepository, shared safely by several processes. */
export function createNotificationRepository(db: Db): NotificationRepository {
  // Read for every message sent (whether to mail its receiver): built once.
  const settingsOf = lazy(() =>
    db
      .select({
        messageMail: notificationSettings.messageMail,
        savedSearchMail: notificationSettings.savedSearchMail,
      })
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, sql.placeholder("userId")))
      .prepare("notification_settings_of"),
  );
  return {
    get: (userId) =>
      guarded(async () => {
        if (!isUuid(userId)) return { ...DEFAULT_NOTIFICATION_SETTINGS };
        const [row] = await settingsOf().execute({ userId });
        return row ?? { ...DEFAULT_NOTIFICATION_SETTINGS };
      }),
    // One upsert; an unknown user fails the foreign key (`user_not_found`, db-errors.ts).
    set: (userId, settings) =>
      guarded(async () => {
        if (!isUuid(userId)) throw new MarketplaceError("user_not_found");
        const values = { messageMail: settings.messageMail, savedSearchMail: settings.savedSearchMail };
        await db
          .insert(notificationSettings)
          .values({ userId, ...values })
          .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
      }),
    // SKIP LOCKED, as the webhook fan-out's cursor: a round holds the row until it commits; another
    // process gets no row and passes instead of waiting and then mailing about the same events.
    takeCursor: () =>
      guarded(async () => {
        const [row] = await db
          .select({ lastSeq: notificationCursor.lastSeq })
          .from(notificationCursor)
          .where(eq(notificationCursor.id, 1))
          .for("update", { skipLocked: true });
        if (row !== undefined) return row.lastSeq;
        // No row at all means the migration's seed is gone, which would stop notifications for
        // good: fail rather than report the cursor taken.
        const [exists] = await db.select({ id: notificationCursor.id }).from(notificationCursor);
        if (exists === undefined) throw new Error("notification_cursor has no row");
        return null;
      }),
    advanceCursor: (seq) =>
      guarded(async () => {
        await db.update(notificationCursor).set({ lastSeq: seq }).where(eq(notificationCursor.id, 1));
      }),
  };
}
