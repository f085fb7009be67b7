import {
  isUuid,
  type Message,
  type MessageDirection,
  type MessageRepository,
  type NewEvent,
  type PageQuery,
} from "@psm/core";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { asArrays } from "../array-rows.js";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazyPerShape } from "../lazy.js";
import { messages } from "../schema.js";
import { eventWrites } from "./event-writer.js";
import { cursorOf, pageLimit } from "./query-helpers.js";

/**
 * The PostgreSQL MessageRepository; `outbox`: a unit of work's events (event-writer.ts); `reads`:
 * where the inbox is read (ListingRepositoryOptions.reads).
 */
export function createMessageRepository(db: Db, outbox?: NewEvent[], reads: Db = db): MessageRepository {
  const writes = eventWrites(db, outbox);
  // The inbox of every signed-in caller: each of the four shapes built once, then only executed.
  const listQuery = lazyPerShape((direction: MessageDirection, paged: boolean) => {
    // (receiver_id, id) and (sender_id, id) indexes serve each direction newest first.
    const party = direction === "received" ? messages.receiverId : messages.senderId;
    const prepared = reads
      .select()
      .from(messages)
      .where(
        and(
          eq(party, sql.placeholder("userId")),
          paged ? lt(messages.id, sql.placeholder("before")) : undefined,
        ),
      )
      .orderBy(desc(messages.id))
      .limit(sql.placeholder("limit"))
      .prepare(`messages_${direction}${paged ? "_before" : ""}`);
    return asArrays(prepared);
  });
  return {
    insert: (message: Message, events: readonly NewEvent[] = []) =>
      guarded(async () => {
        // Without events, one statement as before: no transaction to open.
        if (events.length === 0) {
          await db.insert(messages).values(message);
          return;
        }
        await writes.with(
          async (tx) => {
            await tx.insert(messages).values(message);
            return true;
          },
          events,
          (inserted) => inserted,
        );
      }),
    list: (userId: string, direction: MessageDirection, page: PageQuery) =>
      guarded(async () => {
        if (!isUuid(userId)) return [];
        const before = cursorOf(page);
        return listQuery(direction, before !== undefined)({ userId, before, limit: pageLimit(page) });
      }),
    // One seek of messages_receiver_id_sender_id_listing_id_idx, newest first.
    latestBetween: (receiverId, senderId, listingId) =>
      guarded(async () => {
        if (![receiverId, senderId, listingId].every(isUuid)) return null;
        const [row] = await db
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
          .limit(1);
        return row ?? null;
      }),
  };
}
