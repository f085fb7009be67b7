/** One request's fate under a kill or a drain: an HTTP answer, or the socket error it died of. */
import { type Agent, request } from "node:http";

/** What happened to one request, and when (ms since epoch) it was settled. */
export type Outcome =
  | { kind: "answer"; status: number; body: unknown; sentAt: number; at: number }
  | { kind: "error"; code: string; sentAt: number; at: number };

/** The code of a socket error (ECONNREFUSED, ECONNRESET, ...), also when wrapped in `cause` as fetch does. */
export function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  if (typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string") {
    return cause.code;
  }
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Sends a JSON request over `agent` and settles to an Outcome; never throws.
 * node:http rather than fetch so that each worker owns one persistent
 * connection (an Agent with keepAlive and maxSockets 1), like a load
 * balancer's pool: a new connection is only opened after the server closed
 * the last one, so what the test sees is the server's handling of requests on
 * connections it has accepted, not a client pool opening sockets mid-drain.
 */
export function attempt(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; apiKey?: string } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const sentAt = Date.now();
  return new Promise((settle) => {
    const fail = (error: unknown) =>
      settle({ kind: "error", code: errorCode(error), sentAt, at: Date.now() });
    const req = request(`${base}${path}`, { method, agent, headers, timeout: 20_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("error", fail);
      res.on("end", () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        settle({ kind: "answer", status: res.statusCode ?? 0, body, sentAt, at: Date.now() });
      });
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", fail);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}
