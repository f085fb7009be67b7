import { type IdempotentWork, isMarketplaceError, type Marketplace } from "@psm/core";
import { ERROR_STATUS, type ErrorBody } from "@psm/host";
import type { Operation } from "./operation.js";

/** The policy as published in OpenAPI and the capabilities document. */
export const IDEMPOTENCY_POLICY =
  "Optional; 1 to 255 visible ASCII characters (else 400 invalid_idempotency_key). Scoped to the caller, method, route and key. " +
  "The first answer is stored with a fingerprint of the request (method, path, content type, body bytes) and replayed byte for byte " +
  "to a retry with the same key and request, with `Idempotent-Replayed: true`. A retry while the first still runs is 409 with Retry-After; " +
  "the same key with a different request is 422 idempotency_key_reused. 400, 401, 413, 429 and 5xx answers are not stored, so a corrected retry runs. " +
  "The write and its stored answer commit in one transaction. Keys are kept 24 hours.";

/** Answers a retry with the same key must meet again: not a correctable one (decisions.md). */
const NOT_KEPT = new Set([400, 401, 413, 429]);

/** An HTTP answer as kept under an idempotency key (always `application/json`). */
export interface KeptAnswer {
  status: number;
  body: string;
}

/**
 * The result core keeps for a key: the answer as JSON. Migrations copied the
 * answers 1.2 kept (status and body columns) into this same form, so keep it.
 */
export function encodeKeptAnswer(answer: KeptAnswer): string {
  return JSON.stringify({ status: answer.status, body: answer.body });
}

/** The answer a kept result holds; throws (a 500) on one this edge did not write. */
export function decodeKeptAnswer(result: string): KeptAnswer {
  const parsed = JSON.parse(result) as Partial<KeptAnswer> | null;
  if (typeof parsed?.status !== "number" || typeof parsed.body !== "string") {
    throw new Error("idempotency key holds no HTTP answer");
  }
  return { status: parsed.status, body: parsed.body };
}

/**
 * What core's identity of a key was made of in 1.2 (method and route
 * template; now the operation's name), so a key stored by 1.2 still replays.
 * Drop it once no 1.2 process has run for IDEMPOTENCY_TTL_MS (core's DESIGN.md).
 */
export function formerOperationOf(op: Pick<Operation, "method" | "path">): readonly string[] {
  return [op.method, op.path];
}

/** Whether an operation honours Idempotency-Key: every write but login, logout and the password flows. */
export function takesIdempotencyKey(op: Pick<Operation, "method" | "idempotencyKey">): boolean {
  return op.method !== "GET" && op.idempotencyKey !== false;
}

/**
 * A keyed write's work: the use case's presented result as the answer to
 * keep, its writes committed; or a kept refusal (403, 404, ...) as its
 * `{error, code}`, whatever it wrote rolled back. A failure that is not kept
 * is thrown, so the key is released. REST and the MCP tools store the same
 * answer for the same key.
 */
export function storedAnswerOf(
  okStatus: number,
  run: (market: Marketplace) => Promise<unknown>,
): (market: Marketplace) => Promise<IdempotentWork> {
  return async (market) => {
    try {
      const body = JSON.stringify(await run(market));
      return { result: encodeKeptAnswer({ status: okStatus, body }), commit: true, keep: true };
    } catch (error) {
      if (!isMarketplaceError(error)) throw error;
      const status = ERROR_STATUS[error.code];
      if (NOT_KEPT.has(status) || status >= 500) throw error;
      const body: ErrorBody = { error: error.message, code: error.code };
      return { result: encodeKeptAnswer({ status, body: JSON.stringify(body) }), commit: false, keep: true };
    }
  };
}
