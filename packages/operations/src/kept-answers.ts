import { deflateRawSync, inflateRawSync } from "node:zlib";
import {
  IDEMPOTENCY_MAX_BYTES_PER_CALLER,
  IDEMPOTENCY_MAX_KEYS_PER_CALLER,
  type IdempotentOutcome,
  type IdempotentWork,
  isMarketplaceError,
  type Marketplace,
} from "@psm/core";
import { ERROR_STATUS, type ErrorBody } from "@psm/host";
import type { Operation } from "./operation.js";

/** What a replay answers in place of a secret the first answer showed (Operation.secrets). */
export const REDACTED_SECRET = "[redacted: shown once, in the first answer]";

/** The policy as published in OpenAPI and the capabilities document. */
export const IDEMPOTENCY_POLICY =
  "Optional; 1 to 255 visible ASCII characters (else 400 invalid_idempotency_key). Scoped to the caller, method, route and key. " +
  "The first answer is stored with a fingerprint of the request (method, path, content type, body bytes) and replayed byte for byte " +
  "to a retry with the same key and request, with `Idempotent-Replayed: true`. A retry while the first still runs is 409 with Retry-After; " +
  "the same key with a different request is 422 idempotency_key_reused. 400, 401, 413, 429 and 5xx answers are not stored, so a corrected retry runs. " +
  "The write and its stored answer commit in one transaction. Keys are kept 24 hours. " +
  `No stored answer holds a secret: a replay of an answer that showed one (a new API key, a webhook secret) carries "${REDACTED_SECRET}" in its place. ` +
  `A caller holds at most ${IDEMPOTENCY_MAX_KEYS_PER_CALLER.toLocaleString("en")} keys and ${IDEMPOTENCY_MAX_BYTES_PER_CALLER / 1024 / 1024} MiB of stored answers at once; ` +
  "past either a new key is 429 idempotency_limit_reached with Retry-After (replays go on).";

/** Answers a retry with the same key must meet again: not a correctable one (decisions.md). */
const NOT_KEPT = new Set([400, 401, 413, 429]);

/** An HTTP answer as kept under an idempotency key (always `application/json`). */
export interface KeptAnswer {
  status: number;
  body: string;
}

/** Bodies above this many bytes are kept deflated when that is shorter. */
const DEFLATE_ABOVE = 1024;

/**
 * The result core keeps for a key: the answer as JSON, `{status, body}`, or
 * `{status, deflated}` (base64 of the raw-deflated body) for a large body that
 * shrinks so. Migrations copied the answers 1.2 kept into the first form.
 */
export function encodeKeptAnswer(answer: KeptAnswer): string {
  if (Buffer.byteLength(answer.body) > DEFLATE_ABOVE) {
    const deflated = deflateRawSync(answer.body).toString("base64");
    if (deflated.length < answer.body.length) return JSON.stringify({ status: answer.status, deflated });
  }
  return JSON.stringify({ status: answer.status, body: answer.body });
}

/** The answer a kept result holds; throws (a 500) on one this edge did not write. */
export function decodeKeptAnswer(result: string): KeptAnswer {
  const parsed = JSON.parse(result) as { status?: unknown; body?: unknown; deflated?: unknown } | null;
  const body =
    typeof parsed?.deflated === "string"
      ? inflateRawSync(Buffer.from(parsed.deflated, "base64")).toString("utf8")
      : parsed?.body;
  if (typeof parsed?.status !== "number" || typeof body !== "string") {
    throw new Error("idempotency key holds no HTTP answer");
  }
  return { status: parsed.status, body };
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

/** A keyed write as the surfaces run it: the work core runs once, and the answer to give. */
export interface KeptRun {
  work: (market: Marketplace) => Promise<IdempotentWork>;
  /** The answer to give for `outcome`: the first run's as shown, a replay's as kept. */
  answerOf(outcome: IdempotentOutcome): KeptAnswer;
}

/**
 * A keyed write's work: the use case's presented result as the answer to
 * keep, its writes committed; or a kept refusal (403, 404, ...) as its
 * `{error, code}`, whatever it wrote rolled back. A failure that is not kept
 * is thrown, so the key is released. The answer kept carries REDACTED_SECRET
 * at the operation's `secrets`; only the first run's caller sees them. REST
 * and the MCP tools keep the same answer for the same key.
 */
export function keptRun(
  op: Pick<Operation, "ok" | "secrets">,
  run: (market: Marketplace) => Promise<unknown>,
): KeptRun {
  let shown: KeptAnswer | undefined;
  const work = async (market: Marketplace): Promise<IdempotentWork> => {
    try {
      const answer = await run(market);
      shown = { status: op.ok.status, body: JSON.stringify(answer) };
      const kept = { status: op.ok.status, body: JSON.stringify(redacted(answer, op.secrets ?? [])) };
      return { result: encodeKeptAnswer(kept), commit: true, keep: true };
    } catch (error) {
      if (!isMarketplaceError(error)) throw error;
      const status = ERROR_STATUS[error.code];
      if (NOT_KEPT.has(status) || status >= 500) throw error;
      const body: ErrorBody = { error: error.message, code: error.code };
      return { result: encodeKeptAnswer({ status, body: JSON.stringify(body) }), commit: false, keep: true };
    }
  };
  return {
    work,
    answerOf: (outcome) => (!outcome.replayed && shown ? shown : decodeKeptAnswer(outcome.result)),
  };
}

/** A copy of `answer` with REDACTED_SECRET at each dotted path that holds a value. */
function redacted(answer: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0) return answer;
  const copy = structuredClone(answer);
  for (const path of paths) {
    const names = path.split(".");
    const last = names.pop() as string;
    const parent = names.reduce<unknown>(
      (node, name) => (node as Record<string, unknown> | null)?.[name],
      copy,
    );
    if (typeof parent === "object" && parent !== null && last in parent) {
      (parent as Record<string, unknown>)[last] = REDACTED_SECRET;
    }
  }
  return copy;
}
