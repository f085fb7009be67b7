import type { NotificationSettings } from "../domain/notification.js";

/** Notification settings, and the cursor that turns events into notification mail. */
export interface NotificationRepository {
  /** The user's settings; the defaults (DEFAULT_NOTIFICATION_SETTINGS) when they never chose. */
  get(userId: string): Promise<NotificationSettings>;
  /** Stores the user's settings (an unknown user: `user_not_found`). */
  set(userId: string, settings: NotificationSettings): Promise<void>;
  /**
   * The seq of the last event turned into notification mail, held for the caller's unit of work;
   * null when another process holds it. Only meaningful inside a unit of work.
   */
  takeCursor(): Promise<number | null>;
  /** Moves the cursor forward (within the unit of work that took it). */
  advanceCursor(seq: number): Promise<void>;
}
