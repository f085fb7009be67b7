import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Message } from "../../domain/message.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import { type SendMessageInput, sendMessageSchema } from "../../schemas/message.js";
import { newEvent } from "../../support/events.js";
import { admitByMode } from "../access.js";
import { requireProvenAddress } from "../proven-address.js";

/**
 * Sends a message about a listing. Strict mode: the caller is the sender and
 * one of the two parties must be the listing's author. Legacy mode (1.0.2):
 * anyone may send as any existing user. isAgent defaults to true for API-key and OAuth callers.
 * With REQUIRE_VERIFIED_EMAIL the sender's address must be proven.
 */
export async function sendMessage(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "random" | "settings">,
  actor: Actor,
  input: SendMessageInput,
): Promise<Message> {
  const { strict, data } = admitByMode(deps.settings, actor, sendMessageSchema, input);
  const caller = actor.kind === "user" ? actor.user.id : undefined;
  const senderId = data.senderId?.toLowerCase() ?? caller;
  if (!senderId) throw invalidField("senderId", "is required");
  if (strict && senderId !== caller)
    throw new MarketplaceError("forbidden", "You can only send messages as yourself");
  const receiverId = data.receiverId.toLowerCase();
  if (receiverId === senderId) throw invalidField("receiverId", "must differ from the sender");
  const listing = await deps.repos.listings.findById(data.listingId.toLowerCase());
  if (!listing) throw new MarketplaceError("listing_not_found");
  const [sender, receiver] = await Promise.all([
    actor.kind === "user" && senderId === caller ? actor.user : deps.repos.users.findById(senderId),
    deps.repos.users.findById(receiverId),
  ]);
  if (!sender) throw new MarketplaceError("user_not_found", "Sender not found");
  requireProvenAddress(deps.settings, sender);
  if (!receiver) throw new MarketplaceError("user_not_found", "Receiver not found");
  if (strict && listing.userId !== senderId && listing.userId !== receiverId) {
    throw new MarketplaceError("forbidden", "One of the parties must be the listing's author");
  }
  const now = deps.clock.now();
  const message: Message = {
    id: deps.ids.newId(now),
    listingId: listing.id,
    senderId,
    receiverId,
    content: data.content,
    isAgent: data.isAgent ?? (actor.kind === "user" && (actor.via === "api_key" || actor.via === "oauth")),
    createdAt: now,
  };
  await deps.repos.messages.insert(message, [
    newEvent(deps, "message.received", receiverId, {
      message_id: message.id,
      listing_id: listing.id,
      sender_id: senderId,
    }),
  ]);
  return message;
}
