/**
 * Something worth telling a user, written in the same transaction as the change it tells of (a
 * transactional outbox, decisions.md 1.3.0 "Events"): nothing acknowledged is lost by a crash, and
 * nothing is told that did not happen. Each event has one recipient: the author of the listing it
 * is about, the receiver of a message, the owner of a saved search or webhook.
 */
export const EVENT_TYPES = [
  "listing.created",
  "listing.updated",
  "listing.deleted",
  "message.received",
  "saved_search.matched",
  "webhook.test",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event as stored and read. `data` is thin: ids only, the rest is read from the API. */
export interface MarketEvent {
  /** Increasing in commit order: a reader never sees seq N+1 before N is visible. */
  seq: number;
  /** `evt_` and 26 Crockford base32 characters (a ULID): stable, the webhook-id of its deliveries. */
  id: string;
  type: EventType;
  /** Whose event it is: only they read it. */
  userId: string;
  occurredAt: Date;
  data: Readonly<Record<string, string>>;
}

/** An event to write with its change; storage gives it its seq at commit. */
export type NewEvent = Omit<MarketEvent, "seq">;

/** How long events are kept. */
export const EVENT_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** The most events one read answers, and the default. */
export const MAX_EVENTS_PER_READ = 100;

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * `evt_` + a ULID of `at` and 10 random bytes: 26 characters, sortable by time within a
 * millisecond's randomness, so ids say roughly when and never collide in practice.
 */
export function newEventId(at: Date, random: Uint8Array): string {
  if (random.length < 10) throw new RangeError("an event id needs 10 random bytes");
  let time = at.getTime();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  // 80 random bits as 16 characters of 5 bits each: two halves of 40 bits, exact in a double
  // (BigInt arithmetic made this a third of a matched event's cost to write).
  return `evt_${head}${base32(random, 0)}${base32(random, 5)}`;
}

/** Five bytes from `from`, big-endian, as 8 Crockford characters. */
function base32(bytes: Uint8Array, from: number): string {
  let value = 0;
  for (let i = from; i < from + 5; i++) value = value * 256 + (bytes[i] ?? 0);
  let text = "";
  for (let i = 0; i < 8; i++) {
    text = CROCKFORD[value % 32] + text;
    value = Math.floor(value / 32);
  }
  return text;
}
