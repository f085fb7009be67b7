import {
  type EventQuery,
  type EventRepository,
  type EventScan,
  isUuid,
  type MarketEvent,
  type NewEvent,
} from "@psm/core";
import { and, asc, eq, gt, gte, inArray, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { events } from "../schema-events.js";
import { writeEvents } from "./event-writer.js";

/**
 * The PostgreSQL EventRepository, the event log's reads. Its writes go with the changes they tell
 * of (event-writer.ts), whose seqs become visible in seq order, so `seq > after` never skips one.
 * `append` writes through the same writer: in a transaction of its own on the pool, or, inside a
 * unit of work (`outbox` given), at the unit's end with the unit's other events. A caller's feed is
 * read on `reads` (ListingRepositoryOptions.reads); the dispatchers' scans stay on `db`.
 */
export function createEventRepository(db: Db, outbox?: NewEvent[], reads: Db = db): EventRepository {
  return {
    listFor: (userId: string, query: EventQuery) =>
      guarded(async (): Promise<MarketEvent[]> => {
        if (!isUuid(userId)) return [];
        // (user_id, seq) serves the range in order; the types filter the few rows it reads.
        return reads
          .select()
          .from(events)
          .where(
            and(
              eq(events.userId, userId),
              gt(events.seq, query.after),
              query.types === undefined ? undefined : inArray(events.type, [...query.types]),
              query.since === undefined ? undefined : gte(events.occurredAt, query.since),
            ),
          )
          .orderBy(asc(events.seq))
          .limit(Math.max(0, query.limit));
      }),
    // The primary key's range, in order: LIMIT stops the walk.
    listAfter: (after: number, limit: number) =>
      guarded(
        async (): Promise<MarketEvent[]> =>
          db
            .select()
            .from(events)
            .where(gt(events.seq, after))
            .orderBy(asc(events.seq))
            .limit(Math.max(0, limit)),
      ),
    // Where the window ends (the key's range, no row read), then the rows of the wanted types in it.
    scanAfter: (after: number, query: EventScan) =>
      guarded(async () => {
        const [end] = await db.execute<{ last: string | null; n: number }>(sql`select max(seq) as last,
          count(*)::int as n from (select seq from events where seq > ${after} order by seq
          limit ${Math.max(0, query.window)}) w`);
        if (end?.last == null) return { events: [], through: null, more: false };
        const last = Number(end.last);
        const rows: MarketEvent[] = await db
          .select()
          .from(events)
          .where(and(gt(events.seq, after), lte(events.seq, last), inArray(events.type, [...query.types])))
          .orderBy(asc(events.seq))
          .limit(Math.max(0, query.limit));
        const tail = rows.at(-1);
        if (tail !== undefined && rows.length >= query.limit)
          return { events: rows, through: tail.seq, more: true };
        return { events: rows, through: last, more: end.n >= query.window };
      }),
    append: (appended: readonly NewEvent[]) =>
      guarded(async () => {
        if (appended.length === 0) return;
        if (outbox !== undefined) {
          outbox.push(...appended);
          return;
        }
        await db.transaction((tx) => writeEvents(tx, appended));
      }),
    sweep: (before: Date) =>
      guarded(async () => {
        const rows = await db.delete(events).where(lt(events.occurredAt, before));
        return rows.count;
      }),
  };
}
