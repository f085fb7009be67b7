import { randomBytes, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { MarketplaceError, type PasswordHasher, type VerifyPurpose } from "@psm/core";
import { createLane } from "./lane.js";
import { type Argon2Params, deriveKey, formatPhc, parsePhc } from "./phc.js";

/** OWASP's minimum for argon2id (m=19 MiB, t=2, p=1): the default parameters of new hashes. */
export const OWASP_MIN: Argon2Params = { memoryKiB: 19_456, passes: 2, parallelism: 1 };

/** Options of createArgon2Hasher; every one has a default. */
export interface Argon2HasherOptions {
  /** Parameters of new hashes (default OWASP_MIN); verification reads each hash's own. */
  params?: Argon2Params;
  /** Login verifications at once, in a lane of their own (default cores − 1, at least 1). */
  verifyConcurrency?: number;
  /** Login verifications that may wait for their lane; one more is refused with 503 (default 64). */
  verifyQueue?: number;
  /** Confirmations (a signed-in user re-proving a password) at once, in a lane of their own (default 1). */
  confirmConcurrency?: number;
  /** Confirmations that may wait for their lane; one more is refused with 503 (default 8). */
  confirmQueue?: number;
  /** New hashes (sign-up, password change) at once (default 1). */
  hashConcurrency?: number;
  /** New hashes that may wait for the hash lane; one more is refused with 503 (default 32). */
  hashQueue?: number;
  /** Retry-After of every refusal, in seconds (default 2). */
  retryAfterSeconds?: number;
}

/**
 * argon2id through Node's native, asynchronous crypto.argon2: hashing runs on
 * libuv's thread pool, never on the event loop. Hashes are PHC strings, so the
 * parameters can be raised later and old hashes upgraded at login.
 *
 * Three lanes that never wait for each other: login verifications,
 * confirmations (`verify(..., "confirm")`, e.g. change password, which is
 * rate limited per account far above logins) and new hashes. So neither a
 * flood of sign-ups nor one of password changes can queue its work in front
 * of logins. Each lane has a bounded queue; past it the call throws
 * `service_unavailable` with a Retry-After (503) at once, instead of letting
 * anyone pile up work without bound.
 */
export function createArgon2Hasher(options: Argon2HasherOptions = {}): PasswordHasher {
  const params = options.params ?? OWASP_MIN;
  const retryAfter = options.retryAfterSeconds ?? 2;
  const bounded = (max: number, message: string) => ({
    max,
    refuse: () => new MarketplaceError("service_unavailable", message, { retryAfter }),
  });
  // argon2 is CPU-bound: with as many hashes as cores in flight, the event
  // loop waits for a core. Logins leave one core to it, which keeps reads fast
  // during a login burst; confirmations and new hashes take one lane each, so
  // only a login burst beside both floods keeps every core busy.
  const loginLane = createLane(
    options.verifyConcurrency ?? Math.max(1, availableParallelism() - 1),
    bounded(options.verifyQueue ?? 64, "Too many sign-ins at once; try again shortly"),
  );
  const confirmLane = createLane(
    options.confirmConcurrency ?? 1,
    bounded(options.confirmQueue ?? 8, "Too many password confirmations at once; try again shortly"),
  );
  const hashLane = createLane(
    options.hashConcurrency ?? 1,
    bounded(options.hashQueue ?? 32, "Too many passwords are being set; try again shortly"),
  );
  return {
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16);
      const tag = await hashLane(() => deriveKey(password, salt, params));
      return formatPhc({ params, salt, tag });
    },
    async verify(hash: string, password: string, purpose: VerifyPurpose = "login"): Promise<boolean> {
      const phc = parsePhc(hash);
      if (!phc) return false;
      const lane = purpose === "confirm" ? confirmLane : loginLane;
      const tag = await lane(() => deriveKey(password, phc.salt, phc.params, phc.tag.length));
      return tag.length === phc.tag.length && timingSafeEqual(tag, phc.tag);
    },
    needsRehash(hash: string): boolean {
      const own = parsePhc(hash)?.params;
      if (!own) return true;
      return (
        own.memoryKiB < params.memoryKiB || own.passes < params.passes || own.parallelism < params.parallelism
      );
    },
  };
}
