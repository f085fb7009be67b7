import type { MarketEvent, NewEvent } from "../../domain/event.js";
import type { EventQuery, EventRepository, EventScan } from "../../ports/event-repository.js";
import { copy, type MemoryState } from "./state.js";

/** The key of the events table's one counter row. */
const LAST = "last";

/**
 * Appends events with the next seqs. The memory storage runs one call at a time, so seqs follow
 * commit order; the counter lives in the state, so a unit of work that throws takes it back too.
 */
export function appendEvents(state: MemoryState, events: readonly NewEvent[] = []): void {
  let last = lastEventSeq(state);
  for (const event of events) {
    last++;
    state.events.set(String(last), { ...copy(event), seq: last });
  }
  state.eventSequence.set(LAST, last);
}

/** The seq of the last event appended (0 before any). */
export function lastEventSeq(state: MemoryState): number {
  return state.eventSequence.get(LAST) ?? 0;
}

/** The in-memory EventRepository. */
export function createMemoryEventRepository(state: MemoryState): EventRepository {
  return {
    async listFor(userId: string, query: EventQuery) {
      const rows: MarketEvent[] = [];
      for (const event of state.events.values()) {
        if (event.userId !== userId || event.seq <= query.after) continue;
        if (query.types !== undefined && !query.types.includes(event.type)) continue;
        if (query.since !== undefined && event.occurredAt.getTime() < query.since.getTime()) continue;
        rows.push(copy(event));
      }
      return rows.sort((a, b) => a.seq - b.seq).slice(0, query.limit);
    },
    async listAfter(after: number, limit: number) {
      const rows = [...state.events.values()].filter((event) => event.seq > after);
      return rows
        .sort((a, b) => a.seq - b.seq)
        .slice(0, limit)
        .map(copy);
    },
    async scanAfter(after: number, query: EventScan) {
      const window = [...state.events.values()]
        .filter((event) => event.seq > after)
        .sort((a, b) => a.seq - b.seq)
        .slice(0, Math.max(0, query.window));
      const events = window
        .filter((event) => query.types.includes(event.type))
        .slice(0, Math.max(0, query.limit));
      const last = events.at(-1);
      if (last !== undefined && events.length >= query.limit) {
        return { events: events.map(copy), through: last.seq, more: true };
      }
      return {
        events: events.map(copy),
        through: window.at(-1)?.seq ?? null,
        more: query.window > 0 && window.length >= query.window,
      };
    },
    async append(events: readonly NewEvent[]) {
      appendEvents(state, events);
    },
    async sweep(before: Date) {
      let removed = 0;
      for (const [key, event] of state.events) {
        if (event.occurredAt.getTime() < before.getTime()) {
          state.events.delete(key);
          removed++;
        }
      }
      return removed;
    },
  };
}
