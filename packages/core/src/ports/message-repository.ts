import type { Message, MessageDirection } from "../domain/message.js";
import type { PageQuery } from "../domain/page.js";

/** Storage of messages. */
export interface MessageRepository {
  insert(message: Message): Promise<void>;
  /** Messages received by (or sent by) `userId`, id descending. */
  list(userId: string, direction: MessageDirection, page: PageQuery): Promise<Message[]>;
}
