import { MESSAGE_MAIL_CHOICES, SAVED_SEARCH_MAIL_CHOICES } from "@psm/core";
import * as v from "valibot";
import { about, named } from "./wire-fields.js";

/** GET and PATCH /api/notifications. */
export const NotificationSettingsSchema = named(
  "NotificationSettings",
  v.object({
    message_mail: about(
      "instant: a mail when someone writes to you (one per conversation at most every 15 minutes); off: none.",
      v.picklist(MESSAGE_MAIL_CHOICES),
    ),
    saved_search_mail: about(
      "instant (at most hourly per saved search), daily (a digest) or off: mails about new listings matching your saved searches.",
      v.picklist(SAVED_SEARCH_MAIL_CHOICES),
    ),
  }),
);
