import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from "../../domain/notification.js";
import type { NotificationRepository } from "../../ports/notification-repository.js";
import { copy, type MemoryState, requireUser } from "./state.js";

const CURSOR = "cursor";

/** The in-memory NotificationRepository. */
export function createMemoryNotificationRepository(state: MemoryState): NotificationRepository {
  return {
    async get(userId: string) {
      return copy(state.notificationSettings.get(userId) ?? DEFAULT_NOTIFICATION_SETTINGS);
    },
    async set(userId: string, settings: NotificationSettings) {
      requireUser(state, userId);
      state.notificationSettings.set(userId, copy(settings));
    },
    async takeCursor() {
      return state.notifyCursor.get(CURSOR) ?? 0;
    },
    async advanceCursor(seq: number) {
      state.notifyCursor.set(CURSOR, seq);
    },
  };
}
