/** One quota: at most `limit` hits per fixed window of `windowMs`. */
export interface RateLimitPolicy {
  /** Names the policy in the RateLimit headers and prefixes its counter keys. */
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The quotas of decisions.md, one per route class plus the two quotas of failed logins. */
export interface RateLimitPolicies {
  /** GETs, per client IP. */
  read: RateLimitPolicy;
  /** Other methods, per caller (user id, else client IP). */
  write: RateLimitPolicy;
  /** Login attempts per client IP. */
  login: RateLimitPolicy;
  /**
   * Failed logins per target address from one client IP: the guesses one
   * client gets at one account. Only that client is refused, never the owner.
   */
  loginFailures: RateLimitPolicy;
  /**
   * Failed logins per target address from every IP together: the ceiling of a
   * slow brute force from many IPs. Past it a correct password still logs in,
   * and each wrong guess spends its address's loginFailures at once.
   */
  accountLoginFailures: RateLimitPolicy;
  /** Accounts created per client IP (failed sign-ups are not counted). */
  signup: RateLimitPolicy;
  /** Password-reset requests per client IP (the per-address mail limit lives in core). */
  reset: RateLimitPolicy;
  /** Document uploads per caller. */
  upload: RateLimitPolicy;
}

/**
 * decisions.md: reads 600/min, writes 120/min; login 10/min per IP, 5 failures
 * per (address, IP) per 15 min and 100 failures per address per hour; signup
 * 10/h, reset 5/h, parse-pdf 20/min.
 */
export const DEFAULT_RATE_LIMIT_POLICIES: Readonly<RateLimitPolicies> = {
  read: { name: "read", limit: 600, windowMs: MINUTE },
  write: { name: "write", limit: 120, windowMs: MINUTE },
  login: { name: "login", limit: 10, windowMs: MINUTE },
  loginFailures: { name: "login-failures", limit: 5, windowMs: 15 * MINUTE },
  accountLoginFailures: { name: "account-login-failures", limit: 100, windowMs: HOUR },
  signup: { name: "signup", limit: 10, windowMs: HOUR },
  reset: { name: "reset", limit: 5, windowMs: HOUR },
  upload: { name: "upload", limit: 20, windowMs: MINUTE },
};
