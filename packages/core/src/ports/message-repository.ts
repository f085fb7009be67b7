import type { NewEvent } from "../domain/event.js";
import type { Message, MessageDirection } from "../domain/message.js";
import type { PageQuery } from "../domain/page.js";

/** Storage of messages. */
export interface MessageRepository {
  /** Stores the message and `events`, in one transaction. */
  insert(message: Message, events?: readonly NewEvent[]): Promise<void>;
  /** Messages received by (or sent by) `userId`, id descending. */
  list(userId: string, direction: MessageDirection, page: PageQuery): Promise<Message[]>;
  /** The newest message `senderId` sent `receiverId` about the listing; null when there is none. */
  latestBetween(receiverId: string, senderId: string, listingId: string): Promise<Message | null>;
}
