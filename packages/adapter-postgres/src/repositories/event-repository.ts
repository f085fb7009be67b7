import { type EventQuery, type EventRepository, isUuid, type MarketEvent } from "@psm/core";
import { and, asc, eq, gt, inArray, lt } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { events } from "../schema-events.js";

/**
 * The PostgreSQL EventRepository, the event log's reads. Its writes go with the changes they tell
 * of (event-writer.ts), whose seqs become visible in seq order, so `seq > after` never skips one.
 */
export function createEventRepository(db: Db): EventRepository {
  return {
    listFor: (userId: string, query: EventQuery) =>
      guarded(async (): Promise<MarketEvent[]> => {
        if (!isUuid(userId)) return [];
        // (user_id, seq) serves the range in order; the types filter the few rows it reads.
        return db
          .select()
          .from(events)
          .where(
            and(
              eq(events.userId, userId),
              gt(events.seq, query.after),
              query.types === undefined ? undefined : inArray(events.type, [...query.types]),
            ),
          )
          .orderBy(asc(events.seq))
          .limit(Math.max(0, query.limit));
      }),
    sweep: (before: Date) =>
      guarded(async () => {
        const rows = await db.delete(events).where(lt(events.occurredAt, before));
        return rows.count;
      }),
  };
}
