import { MarketplaceError } from "@psm/core";
import type { Context } from "hono";
import { createByteBudget } from "../body/byte-budget.js";
import { type Body, readBody, SlowBodyError } from "../body/read-body.js";
import { createSlots } from "./slots.js";

/** How uploads are bounded, on every surface that takes one (API, pages, MCP). */
export interface UploadBounds {
  /** Largest file an upload may carry; its body is that in its envelope (see envelopeBytes). */
  maxFileBytes: number;
  /** Uploads of one caller in progress at once, body reading included; more are 429. Default 2. */
  perCaller: number;
  /** Uploads being parsed at once in the process; more are 503. Default 4. */
  concurrent: number;
  /** Bytes all upload bodies may hold at once in the process; past it 503. Default 2 × concurrent × the largest body. */
  budgetBytes: number;
  /** Time for a whole body to arrive; past it 400 and the connection is closed. Default 15 s. */
  bodyTimeoutMs: number;
  /** Longest pause between two chunks of a body; past it the body is cut as a late one. Default 5 s. */
  idleMs: number;
  /**
   * After a body of theirs was cut for arriving too slowly, a caller's uploads are refused (429)
   * this long: holding the process's budget with stalled bodies is not renewable. Default 60 s.
   */
  cooldownMs: number;
  /** Bytes read and dropped past the limit so that the 413 reaches a client still sending. Default 16 MiB. */
  drainBytes: number;
}

/** How a file travels in a request body: a multipart part (API, pages) or base64 in JSON (MCP). */
export type UploadEnvelope = "multipart" | "base64-json";

// Room for the multipart boundaries and part headers, or the JSON-RPC message, around the file.
const ENVELOPE_OVERHEAD = 64 * 1024;

/** The largest body that carries a file of `maxFileBytes` in `envelope`. */
export function envelopeBytes(maxFileBytes: number, envelope: UploadEnvelope): number {
  const file = envelope === "multipart" ? maxFileBytes : Math.ceil(maxFileBytes / 3) * 4;
  return file + ENVELOPE_OVERHEAD;
}

/** The upload bounds of one process, shared by every surface that takes uploads. */
export interface UploadGate {
  readonly bounds: Readonly<UploadBounds>;
  /** Admits one upload of `caller` (a user id): a release to call once, or 429 when its share is in use or cooling down. */
  admit(caller: string): () => void;
  /**
   * Reads an admitted upload's body within every bound (and `maxBytes`, when a surface's own
   * limit is lower than the envelope's); a body cut for slowness starts the caller's cooldown.
   */
  read(c: Context, caller: string, envelope: UploadEnvelope, maxBytes?: number): Promise<Body>;
  /** Runs `work` in one of the process's parse slots (503 with Retry-After when none is free). */
  parse<T>(work: () => Promise<T>): Promise<T>;
  /** Admit, read, take a parse slot and run `work` with the bytes; everything is given back on every path. */
  receive<T>(
    c: Context,
    caller: string,
    envelope: UploadEnvelope,
    work: (bytes: Uint8Array<ArrayBuffer>) => Promise<T>,
  ): Promise<T>;
  /** Bytes held by upload bodies now. */
  heldBytes(): number;
}

const DEFAULTS = {
  perCaller: 2,
  concurrent: 4,
  bodyTimeoutMs: 15_000,
  idleMs: 5_000,
  cooldownMs: 60_000,
  drainBytes: 16 * 1024 * 1024,
};

/** Cooling callers past which expired entries are swept. */
const MAX_COOLING = 10_000;

const busy = () =>
  new MarketplaceError("service_unavailable", "Too many uploads in progress; try again shortly", {
    retryAfter: 5,
  });

/** The upload gate of a process; `now` is injectable for tests of the cooldown. */
export function createUploadGate(
  given: Partial<UploadBounds> & Pick<UploadBounds, "maxFileBytes">,
  now: () => number = Date.now,
): UploadGate {
  const concurrent = given.concurrent ?? DEFAULTS.concurrent;
  const bounds: UploadBounds = {
    ...DEFAULTS,
    budgetBytes: 2 * concurrent * envelopeBytes(given.maxFileBytes, "base64-json"),
    ...given,
  };
  const shares = createSlots(bounds.perCaller, true);
  const parsing = createSlots(bounds.concurrent);
  const budget = createByteBudget(bounds.budgetBytes);
  // Callers whose last body stalled, until when; pruned as they are looked up, and of every
  // expired entry once it holds many, so accounts that never come back cost nothing for long.
  const cooling = new Map<string, number>();
  const cool = (caller: string) => {
    if (cooling.size >= MAX_COOLING) {
      for (const [key, until] of cooling) if (until <= now()) cooling.delete(key);
    }
    cooling.set(caller, now() + bounds.cooldownMs);
  };

  const admit = (caller: string) => {
    const until = cooling.get(caller);
    if (until !== undefined && until > now()) {
      throw new MarketplaceError(
        "rate_limited",
        "An upload of yours arrived too slowly; wait before the next",
        {
          retryAfter: Math.ceil((until - now()) / 1000),
        },
      );
    }
    if (until !== undefined) cooling.delete(caller);
    const release = shares.tryTake(caller);
    if (release === null) {
      throw new MarketplaceError(
        "rate_limited",
        `At most ${bounds.perCaller} uploads of one account are handled at once; wait for one to finish`,
        { retryAfter: 5 },
      );
    }
    return release;
  };

  const read = async (c: Context, caller: string, envelope: UploadEnvelope, maxBytes = Infinity) => {
    try {
      return await readBody(c, {
        maxBytes: Math.min(maxBytes, envelopeBytes(bounds.maxFileBytes, envelope)),
        drainBytes: bounds.drainBytes,
        deadlineMs: bounds.bodyTimeoutMs,
        idleMs: bounds.idleMs,
        budget,
      });
    } catch (error) {
      if (error instanceof SlowBodyError) cool(caller);
      throw error;
    }
  };

  const parse = async <T>(work: () => Promise<T>) => {
    const release = parsing.tryTake();
    if (release === null) throw busy();
    try {
      return await work();
    } finally {
      release();
    }
  };

  return {
    bounds,
    admit,
    read,
    parse,
    heldBytes: () => budget.held(),
    async receive(c, caller, envelope, work) {
      const release = admit(caller);
      try {
        const body = await read(c, caller, envelope);
        try {
          return await parse(() => work(body.bytes));
        } finally {
          body.release();
        }
      } finally {
        release();
      }
    },
  };
}
