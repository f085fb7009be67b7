import { MarketplaceError } from "@psm/core";
import type { Context } from "hono";
import { type ByteBudget, UNBOUNDED } from "./byte-budget.js";

/** The bounds of one request body (a JSON body, a form, an upload). */
export interface BodyLimits {
  /** Largest body accepted. */
  maxBytes: number;
  /**
   * Bytes past `maxBytes` read and thrown away before answering 413: a client that is still
   * sending when the server closes the connection gets a reset (EPIPE) instead of the answer.
   * A body declared larger than both together is answered at once. Default 0.
   */
  drainBytes?: number;
  /** Time for the whole body to arrive; past it the answer is 400 and the connection is closed. */
  deadlineMs?: number;
  /** Longest wait for the next chunk once the body has started: a stalled body is cut as a late one. */
  idleMs?: number;
  /** Bytes that bodies of this kind may hold in memory at once, process-wide. Unbounded by default. */
  budget?: ByteBudget;
}

/** A body read within its bounds; `release()` gives its bytes back to the budget once the request is done. */
export interface Body {
  bytes: Uint8Array<ArrayBuffer>;
  release(): void;
}

/** A body cut for arriving too slowly, by its deadline or a stall: 400, and the upload gate penalises it. */
export class SlowBodyError extends MarketplaceError {
  constructor(message: string) {
    super("invalid_input", message);
  }
}

const seconds = (ms: number | undefined) => Math.round((ms ?? 0) / 1000);

const TIMEOUT = Symbol("timeout");

function tooLarge(c: Context): MarketplaceError {
  // The unread rest of the body makes the connection unusable: say so.
  c.header("Connection", "close");
  return new MarketplaceError("payload_too_large");
}

/** A body stream that failed (the client went away mid-body, or sent broken chunking): not a 500. */
function unreadable(): never {
  throw new MarketplaceError("invalid_input", "The request body could not be read");
}

/**
 * The one body reader of every surface. Reads the request body chunk by chunk: within
 * `deadlineMs` for the whole of it and `idleMs` between chunks (a trickling or stalled body is
 * cut off: 400, connection closed), within `maxBytes` (past it the rest is read and dropped, up
 * to `drainBytes`, and the answer is 413 once the client has sent everything), and within the
 * byte budget (503 when the bodies of this kind together would hold too much). Nothing is
 * parsed here; whatever parses the bytes runs after every bound has held.
 */
export async function readBody(c: Context, limits: BodyLimits): Promise<Body> {
  const drainBytes = limits.drainBytes ?? 0;
  const declared = Number(c.req.header("content-length"));
  if (declared > limits.maxBytes + drainBytes) throw tooLarge(c);
  const budget = limits.budget ?? UNBOUNDED;
  const reader = c.req.raw.body?.getReader();
  if (reader === undefined) return { bytes: new Uint8Array(0), release: () => {} };
  const chunks: Uint8Array[] = [];
  let received = 0;
  let held = 0;
  let timer: NodeJS.Timeout | undefined;
  let idle: NodeJS.Timeout | undefined;
  let stalled = false;
  let late: (value: typeof TIMEOUT) => void = () => {};
  const deadline = new Promise<typeof TIMEOUT>((resolve) => {
    late = resolve;
    if (limits.deadlineMs !== undefined) timer = setTimeout(() => resolve(TIMEOUT), limits.deadlineMs);
  });
  const giveBack = () => {
    budget.give(held);
    held = 0;
    chunks.length = 0;
  };
  try {
    for (;;) {
      if (limits.idleMs !== undefined) {
        clearTimeout(idle);
        idle = setTimeout(() => {
          stalled = true;
          late(TIMEOUT);
        }, limits.idleMs);
      }
      const next = await Promise.race([reader.read().catch(unreadable), deadline]);
      if (next === TIMEOUT) {
        giveBack();
        // The rest may never come: the connection is closed with the answer, not kept for it.
        c.header("Connection", "close");
        throw new SlowBodyError(
          stalled
            ? `The upload stalled: nothing arrived for ${seconds(limits.idleMs)} s`
            : `The upload did not arrive within ${seconds(limits.deadlineMs)} s`,
        );
      }
      if (next.done) break;
      received += next.value.byteLength;
      if (received > limits.maxBytes) {
        giveBack();
        if (received > limits.maxBytes + drainBytes) {
          await reader.cancel().catch(() => undefined);
          break;
        }
        continue; // drained: read and dropped, so that the 413 reaches a client still sending
      }
      if (!budget.take(next.value.byteLength)) {
        giveBack();
        throw new MarketplaceError("service_unavailable", "Too many uploads in progress; try again shortly", {
          retryAfter: 5,
        });
      }
      held += next.value.byteLength;
      chunks.push(next.value);
    }
  } catch (error) {
    giveBack();
    throw error;
  } finally {
    clearTimeout(timer);
    clearTimeout(idle);
    reader.releaseLock();
  }
  if (received > limits.maxBytes) throw tooLarge(c);
  const whole = Buffer.concat(chunks, received);
  chunks.length = 0;
  // A view, not a copy (a small Buffer may sit at an offset in Node's shared pool).
  const bytes = new Uint8Array(whole.buffer as ArrayBuffer, whole.byteOffset, whole.byteLength);
  return { bytes, release: giveBack };
}
