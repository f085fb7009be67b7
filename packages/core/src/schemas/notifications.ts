import * as v from "valibot";
import { MESSAGE_MAIL_CHOICES, SAVED_SEARCH_MAIL_CHOICES } from "../domain/notification.js";
import { text } from "./storable-text.js";

/** notifications.update: either setting, or both. */
export const notificationSettingsSchema = v.object({
  messageMail: v.optional(
    v.picklist(MESSAGE_MAIL_CHOICES, `must be one of ${MESSAGE_MAIL_CHOICES.join(", ")}`),
  ),
  savedSearchMail: v.optional(
    v.picklist(SAVED_SEARCH_MAIL_CHOICES, `must be one of ${SAVED_SEARCH_MAIL_CHOICES.join(", ")}`),
  ),
});
export type NotificationSettingsInput = v.InferInput<typeof notificationSettingsSchema>;

/** notifications.unsubscribe: the token of a mailed one-click link. */
export const unsubscribeSchema = v.object({
  token: v.pipe(text, v.minLength(1, "is required"), v.maxLength(200, "is not a valid unsubscribe link")),
});
export type UnsubscribeInput = v.InferInput<typeof unsubscribeSchema>;
