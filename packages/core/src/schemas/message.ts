import * as v from "valibot";
import { PAGE } from "../domain/limits.js";
import { cursor, limit, messageContent, uuid } from "./fields.js";

/** POST /api/messages. sender_id is required in legacy mode, optional (the caller) in strict mode. */
export const sendMessageSchema = v.object({
  listing_id: uuid,
  sender_id: v.optional(uuid),
  receiver_id: uuid,
  content: messageContent,
  is_agent: v.optional(v.boolean("must be a boolean")),
});
export type SendMessageInput = v.InferInput<typeof sendMessageSchema>;

/** GET /api/messages query. */
export const messageQuerySchema = v.object({
  user_id: v.optional(uuid),
  type: v.optional(v.picklist(["received", "sent"], "must be received or sent"), "received"),
  limit: limit(PAGE.defaultLimit),
  cursor: v.optional(cursor),
});
export type MessageQueryInput = v.InferInput<typeof messageQuerySchema>;
