import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { NotificationSettings, UnsubscribeKind } from "../../domain/notification.js";
import { MarketplaceError } from "../../errors.js";
import {
  type NotificationSettingsInput,
  notificationSettingsSchema,
  type UnsubscribeInput,
  unsubscribeSchema,
} from "../../schemas/notifications.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";
import { readUnsubscribeToken } from "./unsubscribe-links.js";

/** The caller's notification settings (the defaults until they choose). */
export async function getNotificationSettings(
  deps: Pick<Deps, "repos">,
  actor: Actor,
): Promise<NotificationSettings> {
  return deps.repos.notifications.get(requireUser(actor).user.id);
}

/** Changes either setting, or both; answers the settings now in force. */
export async function updateNotificationSettings(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  input: NotificationSettingsInput,
): Promise<NotificationSettings> {
  const { user } = requireUser(actor);
  const data = validate(notificationSettingsSchema, input);
  const current = await deps.repos.notifications.get(user.id);
  const next: NotificationSettings = {
    messageMail: data.messageMail ?? current.messageMail,
    savedSearchMail: data.savedSearchMail ?? current.savedSearchMail,
  };
  await deps.repos.notifications.set(user.id, next);
  return next;
}

const SETTING: Record<UnsubscribeKind, keyof NotificationSettings> = {
  message_mail: "messageMail",
  saved_search_mail: "savedSearchMail",
};

/** What an unsubscribe link names, when it is valid: `unsubscribe_link_invalid` otherwise. */
export async function checkUnsubscribe(
  deps: Pick<Deps, "repos" | "urlSigner">,
  input: UnsubscribeInput,
): Promise<{ kind: UnsubscribeKind }> {
  const { token } = validate(unsubscribeSchema, input);
  const named = deps.urlSigner ? readUnsubscribeToken(deps.urlSigner, token) : null;
  if (!named || !(await deps.repos.users.findById(named.userId))) {
    throw new MarketplaceError("unsubscribe_link_invalid");
  }
  return { kind: named.kind };
}

/**
 * A one-click unsubscribe (RFC 8058): turns the kind the link names off for its user, with no
 * login. Idempotent: a second click changes nothing and answers the same.
 */
export async function unsubscribe(
  deps: Pick<Deps, "repos" | "urlSigner">,
  input: UnsubscribeInput,
): Promise<{ kind: UnsubscribeKind }> {
  const { token } = validate(unsubscribeSchema, input);
  const named = deps.urlSigner ? readUnsubscribeToken(deps.urlSigner, token) : null;
  if (!named) throw new MarketplaceError("unsubscribe_link_invalid");
  const current = await deps.repos.notifications.get(named.userId);
  try {
    await deps.repos.notifications.set(named.userId, { ...current, [SETTING[named.kind]]: "off" });
  } catch (error) {
    // The account is gone: the link no longer names anyone.
    if (error instanceof MarketplaceError && error.code === "user_not_found") {
      throw new MarketplaceError("unsubscribe_link_invalid");
    }
    throw error;
  }
  return { kind: named.kind };
}
