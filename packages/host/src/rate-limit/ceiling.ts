import { MarketplaceError } from "@psm/core";
import type { Context, MiddlewareHandler } from "hono";
import type { Store } from "hono-rate-limiter";
import type { HostEnv } from "../env.js";
import { secondsUntil, setRateLimitHeaders } from "./headers.js";
import { statusOf } from "./limiter.js";
import type { RateLimitPolicy } from "./policies.js";

/** One failure quota: its policy, its store and its key. */
export interface FailureQuota {
  policy: RateLimitPolicy;
  store: Store<HostEnv>;
  key: (c: Context<HostEnv>) => string | undefined;
}

type StoreOptions = Parameters<NonNullable<Store<HostEnv>["init"]>>[0];

/** The status a failed password answers with: the failures these quotas count. */
const FAILED = 401;

/**
 * An account's ceiling of failures from every client address together
 * (decisions.md: nobody can lock an owner out). It refuses no one by itself:
 * past the ceiling the password is still checked, and a correct one logs in,
 * while a wrong one is answered 429 (never 401) and spends at once the
 * remaining failures of its own address (`perAddress`, which runs outside
 * this one and refuses that address unheard until its window ends). So the
 * owner, from any address that has not itself failed too often, gets in;
 * guessing past the ceiling costs a new address per guess.
 */
export function failureCeiling(account: FailureQuota, perAddress: FailureQuota): MiddlewareHandler<HostEnv> {
  const counterOf = (quota: FailureQuota, c: Context<HostEnv>) => {
    const key = quota.key(c);
    return key === undefined ? undefined : `${quota.policy.name}:${key}`;
  };
  // No limiter owns the account's store, so it is given its window here, as hono-rate-limiter gives
  // its own (Redis's store cannot count without one).
  account.store.init?.({ windowMs: account.policy.windowMs, limit: account.policy.limit } as StoreOptions);
  return async (c, next) => {
    const counter = counterOf(account, c);
    if (counter === undefined) return next();
    // Counted first and taken back unless it failed, so concurrent guesses cannot all slip under.
    const { totalHits } = await account.store.increment(counter);
    const past = totalHits > account.policy.limit;
    let held: { error: unknown } | undefined;
    try {
      await next();
    } catch (error) {
      held = { error };
    }
    const status = held ? statusOf(held.error) : c.res.status;
    if (status !== FAILED) {
      await account.store.decrement(counter);
    } else if (past) {
      throw await spendAddress(c, perAddress, counterOf(perAddress, c));
    }
    if (held) throw held.error;
  };
}

/**
 * Brings the address's failure counter past its limit, counting the
 * failure it stands for once more: perAddress, outside, takes this request
 * back (a 429 is no failure of its), and must still find the limit reached.
 */
async function spendAddress(
  c: Context<HostEnv>,
  quota: FailureQuota,
  counter: string | undefined,
): Promise<MarketplaceError> {
  let resetTime: Date | undefined;
  if (counter !== undefined) {
    for (let hits = 0; hits <= quota.policy.limit; ) {
      ({ totalHits: hits, resetTime } = await quota.store.increment(counter));
    }
  }
  const resetSeconds = secondsUntil(resetTime, quota.policy.windowMs);
  setRateLimitHeaders(c, quota.policy, { remaining: 0, resetSeconds });
  return new MarketplaceError("rate_limited", undefined, { retryAfter: resetSeconds });
}
