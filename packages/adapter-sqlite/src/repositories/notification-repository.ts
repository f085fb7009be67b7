import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationRepository } from "@psm/core";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { notificationCursor, notificationSettings } from "../schema-events.js";

/**
 * NotificationRepository on drizzle. SQLite has one writer at a time and a unit of work holds the
 * write lock from its start, so the cursor needs no lock of its own (as the webhook fan-out's).
 */
export function createNotificationRepository(db: Db): NotificationRepository {
  // Read for every message sent (whether to mail its receiver): prepared once.
  const settingsOf = lazy(() =>
    db
      .select({
        messageMail: notificationSettings.messageMail,
        savedSearchMail: notificationSettings.savedSearchMail,
      })
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, sql.placeholder("userId")))
      .prepare(),
  );
  return {
    get: (userId) => guarded(() => settingsOf().get({ userId }) ?? { ...DEFAULT_NOTIFICATION_SETTINGS }),
    // One upsert; an unknown user fails the foreign key (`user_not_found`, db-errors.ts).
    set: (userId, settings) =>
      guarded(() => {
        const values = { messageMail: settings.messageMail, savedSearchMail: settings.savedSearchMail };
        db.insert(notificationSettings)
          .values({ userId, ...values })
          .onConflictDoUpdate({ target: notificationSettings.userId, set: values })
          .run();
      }),
    takeCursor: () =>
      guarded(() => {
        const row = db
          .select({ lastSeq: notificationCursor.lastSeq })
          .from(notificationCursor)
          .where(eq(notificationCursor.id, 1))
          .get();
        // Without its row the notifier would never move: fail rather than report it taken.
        if (row === undefined) throw new Error("notification_cursor has no row");
        return row.lastSeq;
      }),
    advanceCursor: (seq) =>
      guarded(() => {
        db.update(notificationCursor).set({ lastSeq: seq }).where(eq(notificationCursor.id, 1)).run();
      }),
  };
}
