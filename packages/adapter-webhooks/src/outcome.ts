import type { DeliveryOutcome } from "@psm/core";
import type { Exchange } from "./exchange.js";
import { parseRetryAfter } from "./retry-after.js";

/** The longest piece of a receiver's text (body, Location) kept in an error. */
const MAX_QUOTE = 200;

/**
 * What an exchange means for the delivery: a 2xx succeeded, 410 asks never to be called again,
 * anything else failed. A redirect is a failure like any other status (its target is named, not
 * followed). `retryAfterMs` comes from a usable `Retry-After` on a failure.
 */
export function outcomeOf(exchange: Exchange, nowMs: number): DeliveryOutcome {
  if (exchange.kind === "broken") return { kind: "failed", status: null, error: exchange.error };
  const { status, headers, body } = exchange;
  if (status >= 200 && status < 300) return { kind: "succeeded", status };
  if (status === 410) return { kind: "gone", status };
  const said = quote(status >= 300 && status < 400 ? headers.location : body.toString("utf8"));
  const error =
    status >= 300 && status < 400
      ? `HTTP ${status}: redirects are not followed${said ? ` (to ${said})` : ""}.`
      : `HTTP ${status}${said ? `: ${said}` : ""}`;
  const retryAfterMs = parseRetryAfter(headers["retry-after"], nowMs);
  return retryAfterMs === undefined
    ? { kind: "failed", status, error }
    : { kind: "failed", status, error, retryAfterMs };
}

/** A receiver's text as one short printable line. */
function quote(text: string | undefined): string {
  const line = (text ?? "").replace(/[\p{Cc}\p{Cf}\s]+/gu, " ").trim();
  return line.length > MAX_QUOTE ? `${line.slice(0, MAX_QUOTE - 1)}…` : line;
}
