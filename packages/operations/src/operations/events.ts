import { eventsQuerySchema } from "@psm/core";
import { defineOperation } from "../operation.js";
import { presentEvent } from "../presenters.js";
import { EventPage } from "../wire-schemas.js";
import { EVENT_QUERY } from "./descriptions.js";

/** /api/events: the caller's event feed, polled with the last seq seen. */
export const eventOperations = [
  defineOperation({
    name: "list_events",
    tool: 20,
    useWhen: "to follow changes without webhooks: poll with the greatest seq seen as after",
    method: "GET",
    path: "/api/events",
    auth: "key-or-jwt",
    scope: "events:read",
    rate: "read",
    private: "always",
    tag: "events",
    summary: "Read your events",
    description:
      "What happened to your listings, messages and saved searches since `after`, oldest first: " +
      "listing.created, listing.updated, listing.deleted, message.received, saved_search.matched, webhook.test. " +
      "Pass the greatest seq you have seen as `after` next time: polling so never skips or repeats an event. Kept 90 days.",
    input: { schema: eventsQuerySchema, from: "query", describe: EVENT_QUERY },
    ok: { status: 200, schema: EventPage },
    errors: [403],
    handle: async ({ m, actor, command }) => {
      const events = await m.events.list(actor, command);
      return { events: events.map(presentEvent), count: events.length };
    },
  }),
];
