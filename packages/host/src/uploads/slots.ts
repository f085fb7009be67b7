import { MarketplaceError } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.js";

/** A counter of things in progress that refuses past its bound. */
export interface Slots {
  /** A release function when a slot was free (call it exactly once), else null. */
  tryTake(key?: string): (() => void) | null;
  /** Slots in use (for `key`, or in all). */
  inUse(key?: string): number;
}

/**
 * At most `max` at once, in all (`perKey` false) or for each key (`perKey` true: one caller's
 * share, so that one account cannot hold what every account needs).
 */
export function createSlots(max: number, perKey = false): Slots {
  if (!Number.isInteger(max) || max < 1) throw new RangeError("createSlots: max must be a positive integer");
  const counts = new Map<string, number>();
  const keyOf = (key?: string) => (perKey ? (key ?? "") : "");
  return {
    tryTake(key) {
      const k = keyOf(key);
      const used = counts.get(k) ?? 0;
      if (used >= max) return null;
      counts.set(k, used + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(k) ?? 1) - 1;
        if (left <= 0) counts.delete(k);
        else counts.set(k, left);
      };
    },
    inUse: (key) =>
      key === undefined && perKey
        ? [...counts.values()].reduce((a, b) => a + b, 0)
        : (counts.get(keyOf(key)) ?? 0),
  };
}

/**
 * At most `max` requests through at once in this process; the next is
 * answered 503 `service_unavailable` with Retry-After at once, before its body
 * is read.
 */
export function concurrencyCap(max: number, retryAfterSeconds = 5): MiddlewareHandler<AppEnv> {
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError("concurrencyCap: max must be a positive integer");
  const slots = createSlots(max);
  return async (_c, next) => {
    const release = slots.tryTake();
    if (release === null) {
      throw new MarketplaceError("service_unavailable", "Too many uploads in progress; try again shortly", {
        retryAfter: retryAfterSeconds,
      });
    }
    try {
      await next();
    } finally {
      release();
    }
  };
}

/**
 * At most `max` requests of one caller (the signed-in user) in progress on this route at once,
 * from before its body is read to its answer; the next is 429 with Retry-After. What one
 * account holds, slow bodies included, then never exceeds its share.
 */
export function perCallerCap(max: number, retryAfterSeconds = 5): MiddlewareHandler<AppEnv> {
  const slots = createSlots(max, true);
  return async (c, next) => {
    const actor = c.get("actor");
    const release = slots.tryTake(actor.kind === "user" ? actor.user.id : "anonymous");
    if (release === null) {
      throw new MarketplaceError(
        "rate_limited",
        `At most ${max} uploads of one account are handled at once; wait for one to finish`,
        { retryAfter: retryAfterSeconds },
      );
    }
    try {
      await next();
    } finally {
      release();
    }
  };
}
