import { type Actor, type Marketplace, MarketplaceError, sha256Hex } from "@psm/core";
import type { ErrorBody } from "@psm/host";
import { formerOperationOf, keptRun, type Operation } from "@psm/operations";

/** What a tool call answers: the wire body, and whether it replays an earlier call's answer. */
export interface ToolResult {
  body: Record<string, unknown>;
  replayed: boolean;
}

/** A write as a keyed tool call runs it: the concrete path and the JSON body it stands for. */
export interface KeyedRequest {
  op: Pick<Operation, "name" | "method" | "path" | "ok" | "secrets">;
  actor: Actor;
  key: unknown;
  /** The path with its parameters filled in (`/api/listings/0190…`). */
  path: string;
  /** The body fields, or null for an operation without a body (DELETE). */
  body: Record<string, unknown> | null;
}

/**
 * Runs a write at most once per idempotency key, as the REST route does with
 * `Idempotency-Key`: the same scope (`user:<id>`) and operation, so a key
 * means one thing on both transports, and a fingerprint built the
 * same way (method, path, content type, body). The answer stored is the
 * REST answer; a kept failure is thrown again on a replay.
 */
export async function runKeyed(
  m: Marketplace,
  request: KeyedRequest,
  run: (market: Marketplace) => Promise<Record<string, unknown>>,
): Promise<ToolResult> {
  const { op, actor, key } = request;
  if (typeof key !== "string") throw new MarketplaceError("invalid_idempotency_key");
  // REST scopes an anonymous caller by client address, which a tool call does not have.
  if (actor.kind !== "user") {
    throw new MarketplaceError("invalid_idempotency_key", "idempotency_key needs a signed-in caller");
  }
  const kept = keptRun(op, run);
  const outcome = await m.idempotency.run(
    {
      scope: `user:${actor.user.id}`,
      operation: op.name,
      key,
      fingerprint: fingerprintOf(op.method, request.path, request.body),
      formerOperation: formerOperationOf(op),
    },
    kept.work,
  );
  const answer = kept.answerOf(outcome);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  if (answer.status >= 400) {
    const failure = body as unknown as ErrorBody;
    throw new MarketplaceError(failure.code, failure.error);
  }
  return { body, replayed: outcome.replayed };
}

/**
 * The request's fingerprint as the REST route computes it: SHA-256 of
 * `[method, path, content type]` as JSON, a NUL, then the body, here the
 * canonical JSON of the arguments (keys sorted). A body-less write has no
 * content type, as a DELETE over REST has none.
 */
export function fingerprintOf(method: string, path: string, body: Record<string, unknown> | null): string {
  const head = JSON.stringify([method, path, body === null ? "" : "application/json"]);
  return sha256Hex(`${head}\u0000${body === null ? "" : canonicalJson(body)}`);
}

/** JSON with every object's keys in code-point order, so equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value)
      .filter((k) => Reflect.get(value, k) !== undefined)
      .sort();
    const entries = keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(Reflect.get(value, k))}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
