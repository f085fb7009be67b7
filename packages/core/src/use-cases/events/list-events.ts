import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { MarketEvent } from "../../domain/event.js";
import { type EventsQueryInput, eventsQuerySchema } from "../../schemas/events.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";

/**
 * The caller's events after `after`, oldest first: about their listings, the messages they
 * received, their saved searches. Polling with the last seq seen never skips or repeats one.
 */
export async function listEvents(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  query: EventsQueryInput,
): Promise<MarketEvent[]> {
  const { user } = requireUser(actor);
  const q = validate(eventsQuerySchema, query);
  return deps.repos.events.listFor(user.id, {
    after: q.after,
    limit: q.limit,
    ...(q.types ? { types: q.types } : {}),
  });
}
