/** Events for the adapter's own event-log tests. */
import { randomBytes } from "node:crypto";
import { type EventType, type NewEvent, newEventId } from "@psm/core";
import type { Connection } from "../src/connection.js";

/** A new event for `userId` with the given data, occurring now. */
export function eventFor(userId: string, type: EventType, data: Record<string, string>): NewEvent {
  const occurredAt = new Date();
  return { id: newEventId(occurredAt, randomBytes(10)), type, userId, occurredAt, data };
}

/** The counter row's value: the last seq given. */
export async function lastSeq({ sql }: Connection): Promise<number> {
  const [row] = await sql<{ last: string }[]>`select last from event_sequence where id = 1`;
  return Number(row?.last);
}

/** Whether `seqs` run one by one from `after + 1`, with no gap and no repeat. */
export function runsOn(after: number, seqs: readonly number[]): boolean {
  return seqs.every((seq, i) => seq === after + 1 + i);
}
