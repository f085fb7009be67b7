import {
  isUuid,
  type Message,
  type MessageDirection,
  type MessageRepository,
  type PageQuery,
} from "@psm/core";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { messages } from "../schema.js";
import { idBefore, pageLimit } from "./query-helpers.js";

/** The PostgreSQL MessageRepository. */
export function createMessageRepository(db: Db): MessageRepository {
  return {
    insert: (message: Message) =>
      guarded(async () => {
        await db.insert(messages).values(message);
      }),
    list: (userId: string, direction: MessageDirection, page: PageQuery) =>
      guarded(async () => {
        if (!isUuid(userId)) return [];
        // (receiver_id, id) and (sender_id, id) indexes serve each direction newest first.
        const party = direction === "received" ? messages.receiverId : messages.senderId;
        return db
          .select()
          .from(messages)
          .where(and(eq(party, userId), idBefore(messages.id, page)))
          .orderBy(desc(messages.id))
          .limit(pageLimit(page));
      }),
  };
}
