import type { Deps } from "../deps.js";
import { type EventType, type NewEvent, newEventId } from "../domain/event.js";
import type { Listing } from "../domain/listing.js";

/** An event for `userId`, occurring now, to write with the change it tells of. */
export function newEvent(
  deps: Pick<Deps, "clock" | "random">,
  type: EventType,
  userId: string,
  data: Readonly<Record<string, string>>,
): NewEvent {
  const occurredAt = deps.clock.now();
  return { id: newEventId(occurredAt, deps.random.bytes(10)), type, userId, occurredAt, data };
}

/** The event of a listing's creation, change or deletion, told to its author. */
export function listingEvent(
  deps: Pick<Deps, "clock" | "random">,
  type: Extract<EventType, `listing.${string}`>,
  listing: Pick<Listing, "id" | "userId">,
): NewEvent {
  return newEvent(deps, type, listing.userId, { listing_id: listing.id });
}
