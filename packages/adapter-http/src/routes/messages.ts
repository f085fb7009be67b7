import { messageQuerySchema, sendMessageSchema } from "@psm/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { presentMessage } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { query, queryOf } from "../validation.js";
import { MessageSchema } from "../wire-schemas.js";

const tag = "messages";

/** /api/messages: list and send (public in legacy mode, key or JWT in strict mode). */
export function messageRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m } = kit;
  const app = new Hono<AppEnv>();

  app.get(
    "/",
    operation(kit, {
      capability: "list_messages",
      rate: "read",
      tag,
      summary: "List messages",
      ok: {
        200: v.object({
          messages: v.array(MessageSchema),
          count: v.pipe(v.number(), v.integer()),
          type: v.picklist(["received", "sent"]),
          next_cursor: v.nullable(v.string()),
        }),
      },
      errors: [400, 403],
    }),
    query(messageQuerySchema),
    async (c) => {
      const page = await m.messages.list(c.get("actor"), queryOf(c));
      return c.json({
        messages: page.items.map(presentMessage),
        count: page.items.length,
        type: page.type,
        next_cursor: page.nextCursor,
      });
    },
  );

  app.post(
    "/",
    operation(kit, {
      capability: "send_message",
      rate: "write",
      tag,
      summary: "Send a message",
      ok: { 201: v.object({ message: v.string(), data: MessageSchema }) },
      errors: [403, 404],
      body: { schema: sendMessageSchema, name: "SendMessage" },
    }),
    async (c) => {
      const message = await m.messages.send(c.get("actor"), c.get("body"));
      return c.json({ message: "Message sent", data: presentMessage(message) }, 201);
    },
  );

  return app;
}
