import type { Message, MessageRepository, NewEvent } from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { messages } from "../schema.js";
import type { EventAppender } from "./event-repository.js";

/** MessageRepository on drizzle; each direction reads its own (user, id) index, a conversation its own. */
export function createMessageRepository(
  sqlite: Database,
  db: Db,
  appendEvents: EventAppender,
): MessageRepository {
  // better-sqlite3's transaction rather than drizzle's: inside a unit of work it nests as a savepoint.
  const insert = sqlite.transaction((message: Message, events?: readonly NewEvent[]) => {
    db.insert(messages).values(message).run();
    appendEvents(events);
  });
  return {
    insert: (message, events) => guarded(() => insert.immediate(message, events)),
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
    // One seek of messages_receiver_id_sender_id_listing_id_id_idx, read from its end.
    latestBetween: (receiverId, senderId, listingId) =>
      guarded(
        () =>
          db
            .select()
            .from(messages)
            .where(
              and(
                eq(messages.receiverId, receiverId),
                eq(messages.senderId, senderId),
                eq(messages.listingId, listingId),
              ),
            )
            .orderBy(desc(messages.id))
            .limit(1)
            .get() ?? null,
      ),
  };
}
