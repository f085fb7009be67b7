/**
 * Which notification mails a user gets (decisions.md 1.3.0 "Notifications by mail"). Mail goes
 * only to proven addresses, and each carries a one-click unsubscribe that turns its kind off.
 */
export const MESSAGE_MAIL_CHOICES = ["instant", "off"] as const;
export const SAVED_SEARCH_MAIL_CHOICES = ["instant", "daily", "off"] as const;

export type MessageMail = (typeof MESSAGE_MAIL_CHOICES)[number];
export type SavedSearchMail = (typeof SAVED_SEARCH_MAIL_CHOICES)[number];

export interface NotificationSettings {
  messageMail: MessageMail;
  savedSearchMail: SavedSearchMail;
}

/** What a user who never chose gets. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  messageMail: "instant",
  savedSearchMail: "daily",
};

/** The kinds a one-click unsubscribe turns off: the settings' own names. */
export const UNSUBSCRIBE_KINDS = ["message_mail", "saved_search_mail"] as const;
export type UnsubscribeKind = (typeof UNSUBSCRIBE_KINDS)[number];

/** At most one message mail per conversation (listing and correspondent) in this long. */
export const MESSAGE_MAIL_INTERVAL_MS = 15 * 60 * 1000;
/** At most one mail per saved search in this long ("instant"). */
export const SAVED_SEARCH_MAIL_INTERVAL_MS = 60 * 60 * 1000;
/** At most one digest of every saved search in this long ("daily"). */
export const SAVED_SEARCH_DIGEST_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The `ref` of a digest's mail job: about every saved search of its user, not one. */
export const SAVED_SEARCH_DIGEST_REF = "daily";
/** The most new listings one saved-search mail names; it counts the rest. */
export const SAVED_SEARCH_MAIL_LISTINGS = 20;

/** How much of the newest message a mail quotes. */
export const MESSAGE_PREVIEW_LENGTH = 200;

/** The key of a conversation as one receiver sees it: the listing and who wrote. */
export function conversationKey(listingId: string, senderId: string): string {
  return `${listingId}/${senderId}`;
}

/** The listing and the writer of a conversation key; null for anything else. */
export function parseConversationKey(key: string): { listingId: string; senderId: string } | null {
  const [listingId, senderId, ...rest] = key.split("/");
  return listingId && senderId && rest.length === 0 ? { listingId, senderId } : null;
}

/** The first MESSAGE_PREVIEW_LENGTH characters of a message, cut at a code point, with an ellipsis when cut. */
export function messagePreview(content: string): string {
  const points = Array.from(content.replace(/\s+/g, " ").trim());
  return points.length <= MESSAGE_PREVIEW_LENGTH
    ? points.join("")
    : `${points.slice(0, MESSAGE_PREVIEW_LENGTH).join("")}…`;
}
