import type { NewEvent } from "../../domain/event.js";
import type { Message, MessageDirection } from "../../domain/message.js";
import type { PageQuery } from "../../domain/page.js";
import type { MessageRepository } from "../../ports/message-repository.js";
import { appendEvents } from "./event-repository.js";
import { copy, copyOrNull, insertNew, type MemoryState, pageById } from "./state.js";

/** The in-memory MessageRepository. */
export function createMemoryMessageRepository(state: MemoryState): MessageRepository {
  const { messages } = state;
  return {
    // No user or listing check: messages outlive both (the adapters hold no foreign key).
    async insert(message: Message, events?: readonly NewEvent[]) {
      insertNew(messages, message.id, copy(message));
      appendEvents(state, events);
    },
    async latestBetween(receiverId: string, senderId: string, listingId: string) {
      let latest: Message | undefined;
      for (const message of messages.values()) {
        if (message.receiverId !== receiverId || message.senderId !== senderId) continue;
        if (message.listingId !== listingId) continue;
        if (!latest || message.id > latest.id) latest = message;
      }
      return copyOrNull(latest);
    },
    async list(userId: string, direction: MessageDirection, page: PageQuery) {
      const party = direction === "received" ? "receiverId" : "senderId";
      return pageById(
        [...messages.values()].filter((message) => message[party] === userId),
        page,
      );
    },
  };
}
