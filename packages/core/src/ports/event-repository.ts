import type { EventType, MarketEvent, NewEvent } from "../domain/event.js";

/** What a reader of the event log asks for. */
export interface EventQuery {
  /** Only events with a greater seq (0: from the first). */
  after: number;
  /** Only these types; absent, every type. */
  types?: readonly EventType[] | undefined;
  /** Only events that occurred at or after this instant (a webhook replay). */
  since?: Date | undefined;
  /** At most this many. */
  limit: number;
}

/** What scanAfter looks through and answers. */
export interface EventScan {
  types: readonly EventType[];
  /** Events of any type looked through at most (positive). */
  window: number;
  /** Events of `types` answered at most (positive). */
  limit: number;
}

/** scanAfter's answer. */
export interface EventScanResult {
  events: MarketEvent[];
  through: number | null;
  more: boolean;
}

/**
 * The event log's reads. Events are written with the change they tell of, by the repository call
 * that makes it (ListingRepository.insertWithinSlots, update, delete; MessageRepository.insert),
 * in its transaction; storage gives each its seq there.
 */
export interface EventRepository {
  /**
   * One user's events after `after`, oldest first. Seqs increase in commit order, so a reader that
   * passes the last seq it saw never skips an event that commits later, nor sees one twice.
   */
  listFor(userId: string, query: EventQuery): Promise<MarketEvent[]>;
  /** Everyone's events after `after`, oldest first, at most `limit` (the webhook fan-out reads these). */
  listAfter(after: number, limit: number): Promise<MarketEvent[]>;
  /**
   * Reads past the events a reader has no use for: among the next `window` events after `after`
   * (every type), those of `query.types`, oldest first, at most `query.limit` of them. `through`
   * is where the reader goes on from: the last event answered when `limit` were, else the last of
   * the window (null when nothing follows `after`); `more` says whether the log may hold more
   * after it. A reader that passes `through` back skips none of its types and sees none twice.
   */
  scanAfter(after: number, query: EventScan): Promise<EventScanResult>;
  /**
   * Appends events that tell of no stored change of their own (a webhook test), with the next
   * seqs; inside a unit of work they commit with it.
   */
  append(events: readonly NewEvent[]): Promise<void>;
  /** Removes the events that occurred before `before`; answers how many. */
  sweep(before: Date): Promise<number>;
}
