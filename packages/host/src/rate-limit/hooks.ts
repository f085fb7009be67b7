import type { MiddlewareHandler } from "hono";
import { MemoryStore, type RedisClient, RedisStore, type Store } from "hono-rate-limiter";
import type { Logger } from "../edge/logger.js";
import type { HostEnv } from "../env.js";
import type { RateLimitHooks } from "../rate-classes.js";
import { failureCeiling } from "./ceiling.js";
import {
  callerKeyOf,
  confirmAddressKeyOf,
  confirmAttemptKeyOf,
  ipKeyOf,
  loginAddressKeyOf,
  loginAttemptKeyOf,
} from "./keys.js";
import { type LimiterOptions, limiter } from "./limiter.js";
import { DEFAULT_RATE_LIMIT_POLICIES, type RateLimitPolicies, type RateLimitPolicy } from "./policies.js";
import { guardStore, type StoreFailureMode } from "./store-guard.js";
import { inWords } from "./wait.js";

/** Makes the counter store of one policy (each limiter needs its own: the store learns its window). */
export type RateLimitStoreFactory = (policy: RateLimitPolicy) => Store<HostEnv>;

/**
 * In-process counters: hono-rate-limiter's MemoryStore. Every window it drops
 * the keys not seen since the last one, so memory stays bounded by the clients
 * of the last two windows (and IPv6 clients count per /64, see addressKey).
 */
export const memoryStores: RateLimitStoreFactory = () => new MemoryStore<HostEnv>();

/**
 * Counters in Redis through hono-rate-limiter's RedisStore: one EVALSHA per
 * hit (INCR, and PEXPIRE when the window opens, in one Lua script). `client`
 * adapts any Redis client; this package imports none.
 */
export function redisStores(client: RedisClient, prefix = "psm:rl:"): RateLimitStoreFactory {
  return () => new RedisStore<HostEnv>({ client, prefix });
}

/** The options of createRateLimitHooks. */
export interface RateLimitOptions {
  /** The counter stores; in-process memory by default. */
  stores?: RateLimitStoreFactory;
  /** Shared stores can fail: guard them (fail open for reads and writes, closed for auth). Default false. */
  shared?: boolean;
  /** Overrides of the decisions.md quotas (tests, embedders). */
  policies?: Partial<RateLimitPolicies>;
  /** Where store failures are reported. */
  logger?: Logger;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

// Login attempts that count against the address: wrong email or password.
const FAILURES = { counts: (status: number) => status === 401, advertise: false };

// Sign-ups count the accounts created (an answer below 400: the API's 201, the
// page's redirect), so typos and taken addresses cost an office behind one IP
// nothing; a refusal says when the next one is allowed.
const CREATED = {
  counts: (status: number) => status < 400,
  refusal: (seconds: number) =>
    `Too many accounts created from this network: try again in ${inWords(seconds)}`,
};

/** Runs `outer` around `inner`: a request passes both, outer first. */
const around =
  (outer: MiddlewareHandler<HostEnv>, inner: MiddlewareHandler<HostEnv>): MiddlewareHandler<HostEnv> =>
  (c, next) =>
    outer(c, async () => {
      await inner(c, next);
    });

/**
 * The rate-limit hooks of createHttpApp, one per route class (decisions.md):
 * reads per client IP, writes and uploads per caller, accounts created
 * (signup) and reset requests per IP,
 * and login per IP, then its failures per (address, client IP) and per
 * address from every IP; a password confirmation is a write whose failures count as those of a
 * login at the caller's address. One client's guesses at an account lock out that
 * client; the account's ceiling refuses nobody's correct password (failureCeiling):
 * past it, each wrong guess closes its own address at once.
 */
export function createRateLimitHooks(options: RateLimitOptions = {}): RateLimitHooks {
  const policies: RateLimitPolicies = { ...DEFAULT_RATE_LIMIT_POLICIES, ...options.policies };
  const stores = options.stores ?? memoryStores;
  const logger = options.logger ?? silent;
  const store = (policy: RateLimitPolicy, mode: StoreFailureMode) =>
    options.shared ? guardStore(stores(policy), mode, logger, policy.name) : stores(policy);

  const perIp = (policy: RateLimitPolicy, mode: StoreFailureMode) =>
    limiter({ policy, store: store(policy, mode), key: ipKeyOf });
  const perCaller = (policy: RateLimitPolicy) =>
    limiter({ policy, store: store(policy, "open"), key: callerKeyOf });
  // Not advertised on admitted answers: remaining failures of an address are nobody's business.
  // One store per quota, shared by logins and confirmations: both count the same failures.
  const attemptStore = store(policies.loginFailures, "closed");
  const accountStore = store(policies.accountLoginFailures, "closed");
  const failures = (attemptKey: LimiterOptions["key"], accountKey: LimiterOptions["key"]) =>
    around(
      limiter({ policy: policies.loginFailures, store: attemptStore, key: attemptKey, ...FAILURES }),
      failureCeiling(
        { policy: policies.accountLoginFailures, store: accountStore, key: accountKey },
        { policy: policies.loginFailures, store: attemptStore, key: attemptKey },
      ),
    );

  const login = around(perIp(policies.login, "closed"), failures(loginAttemptKeyOf, loginAddressKeyOf));
  const write = perCaller(policies.write);

  return {
    read: perIp(policies.read, "open"),
    write,
    login,
    // A signed-in caller proving their password again: its failures are failed logins of that
    // account (the same counters), so a write quota buys no extra guesses.
    confirm: around(write, failures(confirmAttemptKeyOf, confirmAddressKeyOf)),
    signup: limiter({
      policy: policies.signup,
      store: store(policies.signup, "closed"),
      key: ipKeyOf,
      ...CREATED,
    }),
    reset: perIp(policies.reset, "closed"),
    upload: perCaller(policies.upload),
  };
}
