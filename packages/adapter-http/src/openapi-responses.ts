import { ErrorSchema } from "@psm/operations";
import { type DescribeRouteOptions, resolver } from "hono-openapi";

type Responses = NonNullable<DescribeRouteOptions["responses"]>;

const DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input (the message names the field), malformed JSON or an unusable document",
  401: "Missing credentials on a protected route, or a presented credential that is invalid",
  403: "Not allowed for this caller (not the author, not an admin, no free listing slot)",
  404: "Not found",
  405: "Method not allowed",
  409: "A request with this Idempotency-Key is still running; retry after Retry-After seconds",
  413: "Payload too large",
  422: "The document could not be read in time, or an Idempotency-Key was reused with a different request",
  429: "Rate limited",
  500: "Internal server error",
  503: "Busy or not ready; retry after Retry-After seconds",
};

const RETRY_AFTER = {
  "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" as const } },
};

/** The `{error, code}` answers for these statuses, with Retry-After where it is sent. */
export function errorResponses(statuses: readonly number[]): Responses {
  const out: Responses = {};
  for (const status of [...new Set(statuses)].sort()) {
    out[String(status)] = {
      description: DESCRIPTIONS[status] ?? "Error",
      ...(status === 409 || status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      content: { "application/json": { schema: resolver(ErrorSchema) } },
    };
  }
  return out;
}
