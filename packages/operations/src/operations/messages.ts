import { messageQuerySchema, sendMessageSchema } from "@psm/core";
import { defineOperation, legacyPublic } from "../operation.js";
import { presentMessage } from "../presenters.js";
import { MessagePage, SentMessageAnswer } from "../wire-schemas.js";
import { MESSAGE_FIELDS, MESSAGE_QUERY } from "./descriptions.js";

const tag = "messages";

/** /api/messages: list and send (public in legacy mode, key or JWT in strict mode). */
export const messageOperations = [
  defineOperation({
    name: "list_messages",
    tool: 9,
    useWhen: "to read the caller's inbox (type received) or sent messages, for example before replying",
    method: "GET",
    path: "/api/messages",
    auth: legacyPublic("key-or-jwt"),
    scope: "messages:read",
    rate: "read",
    private: "always",
    tag,
    summary: "List messages",
    description: "Messages received or sent, newest first.",
    input: { schema: messageQuerySchema, from: "query", describe: MESSAGE_QUERY },
    ok: { status: 200, schema: MessagePage },
    errors: [403],
    handle: async ({ m, actor, command }) => {
      const page = await m.messages.list(actor, command);
      return {
        messages: page.items.map(presentMessage),
        count: page.items.length,
        type: page.type,
        next_cursor: page.nextCursor,
      };
    },
  }),
  defineOperation({
    name: "send_message",
    tool: 10,
    useWhen:
      "to contact a listing's author about that listing, or to reply to someone who wrote about the caller's listing",
    method: "POST",
    path: "/api/messages",
    auth: legacyPublic("key-or-jwt"),
    scope: "messages:write",
    rate: "write",
    private: "always",
    tag,
    summary: "Send a message",
    description: "Message a listing's author (or reply).",
    input: {
      schema: sendMessageSchema,
      from: "body",
      ref: "SendMessage",
      describe: MESSAGE_FIELDS,
      example: {
        listing_id: "0190a3b4-5c6d-7e8f-9012-3456789abcde",
        receiver_id: "0190a3b4-0000-7e8f-9012-3456789abcde",
        content: "Is the first week of March free?",
      },
    },
    ok: { status: 201, schema: SentMessageAnswer },
    errors: [403, 404],
    handle: async ({ m, actor, command }) => ({
      message: "Message sent",
      data: presentMessage(await m.messages.send(actor, command)),
    }),
  }),
];
