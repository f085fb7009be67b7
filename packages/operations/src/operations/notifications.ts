import {
  MESSAGE_MAIL_CHOICES,
  type NotificationSettings,
  notificationSettingsSchema,
  SAVED_SEARCH_MAIL_CHOICES,
} from "@psm/core";
import { defineOperation } from "../operation.js";
import { NotificationSettingsSchema } from "../wire-notifications.js";

const tag = "notifications";

/** The wire's settings. */
function presentSettings(settings: NotificationSettings) {
  return { message_mail: settings.messageMail, saved_search_mail: settings.savedSearchMail };
}

/** /api/notifications: which notification mails the caller gets (only ever to a proven address). */
export const notificationOperations = [
  defineOperation({
    name: "get_notification_settings",
    tool: 30,
    useWhen: "to see which mails the caller gets",
    method: "GET",
    path: "/api/notifications",
    auth: "key-or-jwt",
    rate: "read",
    private: "always",
    tag,
    summary: "Read your notification settings",
    description:
      "Which mails you get: about new messages (instant or off) and about new listings matching your saved searches (instant, daily or off). Mail goes only to a proven address; each carries a one-click unsubscribe.",
    input: {},
    ok: { status: 200, schema: NotificationSettingsSchema },
    handle: async ({ m, actor }) => presentSettings(await m.notifications.get(actor)),
  }),
  defineOperation({
    name: "update_notification_settings",
    tool: 31,
    useWhen: "when the user wants more or fewer mails",
    method: "PATCH",
    path: "/api/notifications",
    auth: "key-or-jwt",
    scope: "account:write",
    rate: "write",
    private: "always",
    tag,
    summary: "Change your notification settings",
    description: "Change either setting, or both; answers the settings now in force.",
    input: {
      schema: notificationSettingsSchema,
      from: "body",
      ref: "NotificationSettingsPatch",
      describe: {
        message_mail: `One of ${MESSAGE_MAIL_CHOICES.join(", ")}.`,
        saved_search_mail: `One of ${SAVED_SEARCH_MAIL_CHOICES.join(", ")}.`,
      },
      example: { message_mail: "off" },
    },
    ok: { status: 200, schema: NotificationSettingsSchema },
    handle: async ({ m, actor, command }) => presentSettings(await m.notifications.update(actor, command)),
  }),
];
