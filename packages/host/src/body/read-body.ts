import { MarketplaceError } from "@psm/core";
import type { Context } from "hono";
import type { AppEnv } from "../env.js";

/** The bounds of one request body (an upload, a JSON body, a form). */
export interface UploadLimits {
  /** Largest body accepted. */
  maxBytes: number;
  /**
   * Bytes past `maxBytes` read and thrown away before answering 413: a client that is still
   * sending when the server closes the connection gets a reset (EPIPE) instead of the answer.
   * A body declared larger than both together is answered at once.
   */
  drainBytes: number;
  /**
   * Time for the whole body to arrive; past it the answer is 400 and the connection is closed.
   * None by default (the server's request timeout still holds).
   */
  deadlineMs?: number;
  /** Bytes all uploads of this process may hold in memory at once. Unbounded by default. */
  budget?: ByteBudget;
}

/** Bytes of upload bodies held in memory by the process, against a fixed budget. */
export interface ByteBudget {
  /** Takes `n` bytes; false (nothing taken) when the budget would be exceeded. */
  take(n: number): boolean;
  give(n: number): void;
}

/** Creates a budget of `max` bytes. */
export function createByteBudget(max: number): ByteBudget {
  let held = 0;
  return {
    take(n) {
      if (held + n > max) return false;
      held += n;
      return true;
    },
    give(n) {
      held = Math.max(0, held - n);
    },
  };
}

/** A body read within its bounds; `release()` gives its bytes back to the budget once the request is done. */
export interface Upload {
  bytes: Uint8Array;
  release(): void;
}

const tooLarge = () => new MarketplaceError("payload_too_large");
const TIMEOUT = Symbol("timeout");
const UNBOUNDED: ByteBudget = { take: () => true, give: () => {} };

/** A body stream that failed (the client went away mid-body, or sent broken chunking): not a 500. */
function unreadable(): never {
  throw new MarketplaceError("invalid_input", "The request body could not be read");
}

/**
 * Reads the request body chunk by chunk: within `deadlineMs` for the whole of it (a trickling
 * body is cut off: 400, connection closed), within `maxBytes` (past it the rest is read and
 * dropped, up to `drainBytes`, and the answer is 413 once the client has sent everything), and
 * within the process's byte budget (503 when every upload together would hold too much).
 */
export async function readUpload(c: Context<AppEnv>, limits: UploadLimits): Promise<Upload> {
  const declared = Number(c.req.header("content-length"));
  if (declared > limits.maxBytes + limits.drainBytes) throw tooLarge();
  const budget = limits.budget ?? UNBOUNDED;
  const reader = c.req.raw.body?.getReader();
  if (reader === undefined) return { bytes: new Uint8Array(0), release: () => {} };
  const chunks: Uint8Array[] = [];
  let received = 0;
  let held = 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMEOUT>((resolve) => {
    if (limits.deadlineMs !== undefined) timer = setTimeout(() => resolve(TIMEOUT), limits.deadlineMs);
  });
  const giveBack = () => {
    budget.give(held);
    held = 0;
    chunks.length = 0;
  };
  try {
    for (;;) {
      const next = await Promise.race([reader.read().catch(unreadable), deadline]);
      if (next === TIMEOUT) {
        giveBack();
        // The rest may never come: the connection is closed with the answer, not kept for it.
        c.header("Connection", "close");
        throw new MarketplaceError(
          "invalid_input",
          `The upload did not arrive within ${Math.round((limits.deadlineMs ?? 0) / 1000)} s`,
        );
      }
      if (next.done) break;
      received += next.value.byteLength;
      if (received > limits.maxBytes) {
        giveBack();
        if (received > limits.maxBytes + limits.drainBytes) break;
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
    reader.releaseLock();
  }
  if (received > limits.maxBytes) throw tooLarge();
  const bytes = Buffer.concat(chunks, received);
  chunks.length = 0;
  return { bytes, release: giveBack };
}
