import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { FORBIDDEN_ADDRESS } from "./allowed-addresses.js";

/** Limits on one request. */
export interface ExchangeLimits {
  /** The whole exchange: lookup, connect, TLS, headers and body. */
  timeoutMs: number;
  /** Bytes of the answer's body kept; the connection is cut once that many have come. */
  maxResponseBytes: number;
  /** Resolves the host and vets its addresses at connection time. */
  lookup: LookupFunction;
}

/** How one request ended: the receiver's answer (its body cut to the limit), or no answer. */
export type Exchange =
  | { kind: "answered"; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { kind: "broken"; error: string };

/**
 * POSTs `body` to `url` once (GETs it when there is no body) and never throws. No redirect is followed (node:http follows
 * none), no connection is reused (`agent: false`), and the socket is destroyed when the answer
 * has ended, when `maxResponseBytes` of its body have come, or when `timeoutMs` has passed since
 * the call, whichever is first: an endless or trickling body costs at most that. An answer whose
 * status line came in time stands even if its body is cut short: the receiver has decided.
 */
export function exchange(
  url: URL,
  headers: OutgoingHttpHeaders,
  body: string | undefined,
  limits: ExchangeLimits,
) {
  return new Promise<Exchange>((resolve) => {
    let settled = false;
    let answer: { status: number; headers: IncomingHttpHeaders } | undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    const finish = (result?: Exchange): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if (answer) resolve({ kind: "answered", ...answer, body: Buffer.concat(chunks) });
      else resolve(result ?? { kind: "broken", error: "The connection closed without an answer." });
    };

    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const method = body === undefined ? "GET" : "POST";
    const request = send(url, { method, headers, lookup: limits.lookup, agent: false });
    const timer = setTimeout(
      () => finish({ kind: "broken", error: `No answer within ${limits.timeoutMs} ms.` }),
      limits.timeoutMs,
    );

    request.on("response", (response) => {
      answer = { status: response.statusCode ?? 0, headers: response.headers };
      response.on("data", (chunk: Buffer) => {
        const room = limits.maxResponseBytes - received;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        received += chunk.length;
        if (received >= limits.maxResponseBytes) finish();
      });
      response.on("end", () => finish());
      // A body cut short (by the receiver, or by finish itself) leaves the status standing.
      response.on("error", () => finish());
    });
    request.on("error", (error) => finish({ kind: "broken", error: describeNetworkError(error) }));
    request.on("close", () => finish());
    request.end(body);
  });
}

/** A short, owner-readable account of why no answer came. */
function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case FORBIDDEN_ADDRESS:
      return `Refused: ${error.message}`;
    case "ENOTFOUND": // from guardedLookup, which every lookup goes through
      return error.message;
    case "ECONNREFUSED":
      return "The connection was refused.";
    case "ECONNRESET":
      return "The connection was reset before an answer.";
    default: {
      // OpenSSL's verification codes (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ...) and Node's
      // name mismatch; their messages carry advice for whoever runs Node, not for the receiver.
      if (error.code && /CERT|^UNABLE_TO_/.test(error.code)) {
        return `The receiver's TLS certificate was not accepted (${error.code}).`;
      }
      const text = error.code ? `${error.message} (${error.code})` : error.message;
      return text.length > 200 ? `${text.slice(0, 199)}…` : text;
    }
  }
}
