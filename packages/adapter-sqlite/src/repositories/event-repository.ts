import type { EventQuery, EventRepository, EventScan, EventType, MarketEvent, NewEvent } from "@psm/core";
import type { Database } from "better-sqlite3";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";

/** An events row as the raw statements select it. */
interface EventRow {
  seq: number;
  id: string;
  type: EventType;
  user_id: string;
  occurred_at: number;
  data: string;
}

/**
 * Rows one sweep statement removes at most. better-sqlite3 runs a statement on the event loop to
 * its end, and a busy day's events (or a sweep that fell behind) can be a large delete; in steps,
 * other requests run between them.
 */
const SWEEP_STEP = 1_000;

/**
 * listFor's statement, with or without a set of types (one JSON array parameter, so one prepared
 * statement serves any set). Both read the (user_id, seq) index in order: no sort, and LIMIT
 * stops the walk. `since` (NULL: none) filters the rows the walk reads.
 */
export function listForSql(ofTypes: boolean): string {
  const types = ofTypes ? " AND type IN (SELECT value FROM json_each(@types))" : "";
  return `SELECT seq, id, type, user_id, occurred_at, data FROM events
    WHERE user_id = +@userId AND seq > @after${types} AND (@since IS NULL OR occurred_at >= @since)
    ORDER BY seq LIMIT +@limit`;
}

/** listAfter's statement: a range of the rowid, in order. */
export const LIST_AFTER_SQL = `SELECT seq, id, type, user_id, occurred_at, data FROM events
  WHERE seq > @after ORDER BY seq LIMIT +@limit`;

function toEvent(row: EventRow): MarketEvent {
  return {
    seq: row.seq,
    id: row.id,
    type: row.type,
    userId: row.user_id,
    occurredAt: new Date(row.occurred_at),
    data: JSON.parse(row.data) as Record<string, string>,
  };
}

/**
 * Writes the events of a change. Call it inside the change's write transaction, after the change
 * is known to have happened: the seq AUTOINCREMENT gives is taken under SQLite's one write lock,
 * so seqs follow commit order, and a rollback takes the rows (and their seqs) back with the change.
 */
export type EventAppender = (events: readonly NewEvent[] | undefined) => void;

/** One prepared INSERT, run once per event. */
export function createEventAppender(sqlite: Database): EventAppender {
  const insert = lazy(() =>
    sqlite.prepare<[string, string, string, number, string]>(
      "INSERT INTO events (id, type, user_id, occurred_at, data) VALUES (?, ?, ?, ?, ?)",
    ),
  );
  return (events) => {
    if (events === undefined) return;
    for (const event of events) {
      insert().run(
        event.id,
        event.type,
        event.userId,
        event.occurredAt.getTime(),
        JSON.stringify(event.data),
      );
    }
  };
}

/**
 * scanAfter's two steps: where the window ends (a walk of the rowid range that reads no row), then
 * the rows of the wanted types in it, so the events skipped are never read into JS.
 */
export const SCAN_WINDOW_SQL = `SELECT max(seq) AS last, count(*) AS n FROM
  (SELECT seq FROM events WHERE seq > @after ORDER BY seq LIMIT +@window)`;
export const SCAN_OF_TYPES_SQL = `SELECT seq, id, type, user_id, occurred_at, data FROM events
  WHERE seq > @after AND seq <= @last AND type IN (SELECT value FROM json_each(@types))
  ORDER BY seq LIMIT +@limit`;

type ListForParams = { userId: string; after: number; since: number | null; limit: number };

function prepareStatements(sqlite: Database) {
  return {
    after: sqlite.prepare<ListForParams, EventRow>(listForSql(false)),
    afterOfTypes: sqlite.prepare<ListForParams & { types: string }, EventRow>(listForSql(true)),
    everyoneAfter: sqlite.prepare<{ after: number; limit: number }, EventRow>(LIST_AFTER_SQL),
    windowEnd: sqlite.prepare<{ after: number; window: number }, { last: number | null; n: number }>(
      SCAN_WINDOW_SQL,
    ),
    ofTypes: sqlite.prepare<{ after: number; last: number; types: string; limit: number }, EventRow>(
      SCAN_OF_TYPES_SQL,
    ),
    sweepStep: sqlite.prepare<{ before: number; step: number }>(
      "DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE occurred_at < @before LIMIT +@step)",
    ),
  };
}

/**
 * EventRepository on better-sqlite3; the writes are the EventAppender's, in the changes'
 * transactions, and append's, which uses the same appender.
 */
export function createEventRepository(sqlite: Database, appendEvents: EventAppender): EventRepository {
  const statements = lazy(() => prepareStatements(sqlite));
  // better-sqlite3 nests it as a savepoint inside a unit of work, so the events commit with the unit.
  const appendAll = lazy(() => sqlite.transaction((events: readonly NewEvent[]) => appendEvents(events)));
  return {
    listFor: (userId: string, query: EventQuery) =>
      guarded(() => {
        const { after, types, limit } = query;
        const since = query.since?.getTime() ?? null;
        const rows =
          types === undefined
            ? statements().after.all({ userId, after, since, limit })
            : statements().afterOfTypes.all({ userId, after, since, types: JSON.stringify(types), limit });
        return rows.map(toEvent);
      }),
    listAfter: (after: number, limit: number) =>
      // A negative LIMIT is no limit to SQLite.
      guarded(() =>
        statements()
          .everyoneAfter.all({ after, limit: Math.max(0, limit) })
          .map(toEvent),
      ),
    scanAfter: (after: number, query: EventScan) =>
      guarded(() => {
        const { last, n } = statements().windowEnd.get({ after, window: Math.max(0, query.window) }) ?? {
          last: null,
          n: 0,
        };
        if (last === null) return { events: [], through: null, more: false };
        const events = statements()
          .ofTypes.all({ after, last, types: JSON.stringify(query.types), limit: Math.max(0, query.limit) })
          .map(toEvent);
        const end = events.at(-1);
        if (end !== undefined && events.length >= query.limit)
          return { events, through: end.seq, more: true };
        return { events, through: last, more: n >= query.window };
      }),
    append: (events: readonly NewEvent[]) =>
      guarded(() => {
        if (events.length > 0) appendAll()(events);
      }),
    async sweep(before: Date) {
      let removed = 0;
      for (;;) {
        const step = await guarded(
          () => statements().sweepStep.run({ before: before.getTime(), step: SWEEP_STEP }).changes,
        );
        removed += step;
        if (step < SWEEP_STEP) return removed;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
  };
}
