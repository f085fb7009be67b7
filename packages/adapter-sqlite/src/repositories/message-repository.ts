import type { MessageRepository } from "@psm/core";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { messages } from "../schema.js";

/** MessageRepository on drizzle; each direction reads its own (user, id) index. */
export function createMessageRepository(db: Db): MessageRepository {
  return {
    insert: (message) =>
      guarded(() => {
        db.insert(messages).values(message).run();
      }),
    list: (userId, direction, page) =>
      guarded(() => {
        const party = direction === "received" ? messages.receiverId : messages.senderId;
        return db
          .select()
          .from(messages)
          .where(and(eq(party, userId), page.before === undefined ? undefined : lt(messages.id, page.before)))
          .orderBy(desc(messages.id))
          .limit(page.limit)
          .all();
      }),
  };
}
