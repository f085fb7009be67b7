import { type Marketplace, normalizeEmail } from "@psm/core";
import { formerOperationOf, keptRun, type Operation } from "@psm/operations";
import type { Context } from "hono";
import type { AppEnv } from "../env.js";

/** The header that marks a replayed answer (decisions.md). */
export const REPLAYED_HEADER = "Idempotent-Replayed";

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
  const kept = keptRun(op, run);
  const outcome = await m.idempotency.run(request, kept.work);
  const answer = kept.answerOf(outcome);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (outcome.replayed) headers[REPLAYED_HEADER] = "true";
  return c.body(answer.body, answer.status as 200, headers);
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
