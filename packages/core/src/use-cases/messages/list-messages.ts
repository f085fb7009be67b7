import type { Deps } from "../../deps.js";
import { type Actor, isSelfOrAdmin } from "../../domain/actor.js";
import type { Message, MessageDirection } from "../../domain/message.js";
import type { Page } from "../../domain/page.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import { type MessageQueryInput, messageQuerySchema } from "../../schemas/message.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { admitByMode } from "../access.js";

/** One page of messages with the direction asked for. */
export interface MessagePage extends Page<Message> {
  type: MessageDirection;
}

/**
 * Lists messages received (default) or sent, newest first. Strict mode: the
 * caller's own, or anyone's for an admin. Legacy mode: any userId.
 */
export async function listMessages(
  deps: Pick<Deps, "repos" | "settings">,
  actor: Actor,
  query: MessageQueryInput,
): Promise<MessagePage> {
  const { strict, data: q } = admitByMode(deps.settings, actor, messageQuerySchema, query);
  const userId = q.userId?.toLowerCase() ?? (actor.kind === "user" ? actor.user.id : undefined);
  if (!userId) throw invalidField("userId", "is required");
  if (strict && !isSelfOrAdmin(actor, userId))
    throw new MarketplaceError("forbidden", "You can only read your own messages");
  const rows = await deps.repos.messages.list(userId, q.type, {
    limit: q.limit + 1,
    before: decodeCursor(q.cursor),
  });
  return { ...toPage(rows, q.limit), type: q.type };
}
