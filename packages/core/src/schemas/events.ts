import * as v from "valibot";
import { EVENT_TYPES, MAX_EVENTS_PER_READ } from "../domain/event.js";

const whole = (what: string) =>
  v.union(
    [
      v.pipe(v.number(), v.integer(`${what}: must be an integer`)),
      // At most 15 digits: every such number is exact in a double.
      v.pipe(v.string(), v.regex(/^\d{1,15}$/, "must be an integer"), v.transform(Number)),
    ],
    "must be an integer",
  );

const eventType = v.picklist(EVENT_TYPES, `must each be one of ${EVENT_TYPES.join(", ")}`);

/** events.list: after which seq, which types (a list, or comma-separated as a query gives them), how many. */
export const eventsQuerySchema = v.object({
  after: v.optional(v.pipe(whole("after"), v.minValue(0, "must be at least 0")), 0),
  types: v.optional(
    v.pipe(
      v.union([
        v.pipe(
          v.string(),
          v.maxLength(500, "must be at most 500 characters"),
          v.transform((list: string) => list.split(",").map((type) => type.trim())),
        ),
        v.array(v.string()),
      ]),
      v.maxLength(EVENT_TYPES.length * 2, `must name at most ${EVENT_TYPES.length * 2} types`),
      v.array(eventType),
    ),
  ),
  limit: v.optional(
    v.pipe(
      whole("limit"),
      v.minValue(1, "must be at least 1"),
      v.maxValue(MAX_EVENTS_PER_READ, `must be at most ${MAX_EVENTS_PER_READ}`),
    ),
    MAX_EVENTS_PER_READ,
  ),
});
export type EventsQueryInput = v.InferInput<typeof eventsQuerySchema>;
