import { type IdempotentWork, isMarketplaceError, type Marketplace, normalizeEmail } from "@psm/core";
import { ERROR_STATUS, type ErrorBody } from "@psm/host";
import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import type { Operation } from "./operation.js";

/** The header that marks a replayed answer (decisions.md). */
export const REPLAYED_HEADER = "Idempotent-Replayed";

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
 * Runs a keyed write through the core's idempotency (claim, unit of work,
 * replay) and answers the stored bytes: 201 and kept refusals (403, 404)
 * alike, with `Idempotent-Replayed: true` on a replay. A failure that is not
 * kept (400, 401, 413, 429, 5xx) is thrown as usual, so the key stays free
 * for a corrected retry.
 */
export async function keyedAnswer(
  c: Context<AppEnv>,
  op: Operation,
  m: Marketplace,
  key: string,
  run: (market: Marketplace) => Promise<unknown>,
): Promise<Response> {
  const request = {
    scope: scopeOf(c, op),
    operation: op.name,
    key,
    fingerprint: await fingerprintOf(c),
    formerOperation: formerOperationOf(op),
  };
  const outcome = await m.idempotency.run(request, storedAnswerOf(op.ok.status, run));
  const answer = decodeKeptAnswer(outcome.result);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (outcome.replayed) headers[REPLAYED_HEADER] = "true";
  return c.body(answer.body, answer.status as 200, headers);
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

/**
 * Whose key it is: the signed-in user; for a sign-up the normalised address
 * (whoever signs up with it); other anonymous callers by client address, so
 * one anonymous caller can never meet another's answer.
 */
function scopeOf(c: Context<AppEnv>, op: Operation): string {
  const actor = c.get("actor");
  if (actor.kind === "user") return `user:${actor.user.id}`;
  const email = (c.get("body") as Record<string, unknown> | undefined)?.email;
  if (op.name === "sign_up" && typeof email === "string") return `signup:${normalizeEmail(email)}`;
  return `anonymous:${c.get("clientIp")}`;
}

/** SHA-256 of method, path (with query), content type and body bytes, each length-prefixed. */
async function fingerprintOf(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const head = new TextEncoder().encode(
    JSON.stringify([c.req.method, url.pathname + url.search, c.req.header("Content-Type") ?? ""]),
  );
  const body = c.get("bodyBytes") ?? new Uint8Array();
  const all = new Uint8Array(head.byteLength + 1 + body.byteLength);
  all.set(head, 0);
  all[head.byteLength] = 0; // JSON never contains a raw NUL: the head ends unambiguously
  all.set(body, head.byteLength + 1);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
