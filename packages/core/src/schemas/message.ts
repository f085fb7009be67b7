import * as v from "valibot";
import { PAGE } from "../domain/limits.js";
import { cursor, limit, messageContent, uuid } from "./fields.js";

/** messages.send. senderId is required in legacy mode, optional (the caller) in strict mode. */
export const sendMessageSchema = v.object({
  listingId: uuid,
  senderId: v.optional(uuid),
  receiverId: uuid,
  content: messageContent,
  isAgent: v.optional(v.boolean("must be a boolean")),
});
export type SendMessageInput = v.InferInput<typeof sendMessageSchema>;

/** messages.list. */
export const messageQuerySchema = v.object({
  userId: v.optional(uuid),
  type: v.optional(v.picklist(["received", "sent"], "must be received or sent"), "received"),
  limit: limit(PAGE.defaultLimit),
  cursor: v.optional(cursor),
});
export type MessageQueryInput = v.InferInput<typeof messageQuerySchema>;
