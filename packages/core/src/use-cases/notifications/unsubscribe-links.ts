import type { Deps } from "../../deps.js";
import { UNSUBSCRIBE_KINDS, type UnsubscribeKind } from "../../domain/notification.js";
import { isUuid } from "../../domain/uuid.js";
import type { UrlSigner } from "../../ports/url-signer.js";

/**
 * The token of a one-click unsubscribe link: the user, the kind of mail and a signature of both.
 * Stateless, so it works however old the mail is, and names one kind, so a link from one mail
 * cannot turn off another kind.
 */
export function unsubscribeToken(signer: UrlSigner, userId: string, kind: UnsubscribeKind): string {
  const message = `unsubscribe:${userId}:${kind}`;
  return `${userId}.${kind}.${signer.sign(message)}`;
}

/** The link a notification mail carries. */
export function unsubscribeUrl(
  deps: Pick<Deps, "settings">,
  signer: UrlSigner,
  userId: string,
  kind: UnsubscribeKind,
): string {
  return `${deps.settings.publicUrl}/unsubscribe?token=${unsubscribeToken(signer, userId, kind)}`;
}

/** Whom and what a token names, when its signature holds; null for anything else. */
export function readUnsubscribeToken(
  signer: UrlSigner,
  token: string,
): { userId: string; kind: UnsubscribeKind } | null {
  if (token.length > 200) return null;
  const [userId = "", kind = "", signature = "", ...rest] = token.split(".");
  if (rest.length > 0 || !isUuid(userId)) return null;
  if (!(UNSUBSCRIBE_KINDS as readonly string[]).includes(kind)) return null;
  const named = kind as UnsubscribeKind;
  return signer.verify(`unsubscribe:${userId}:${named}`, signature) ? { userId, kind: named } : null;
}
